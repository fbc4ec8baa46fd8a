// A thread's settings from its form and its switches: enabled servers, model and prompt, servers' instructions.
import type { CodeExecutionMode } from '../domain/code-execution';
import { describeError } from '../domain/errors';
import { logFailure, silentLogger } from '../domain/logger';
import { definedOverrides, type ThreadToolSearchOverrides } from '../domain/tool-search-settings';
import { resolveUsageLimits, serverLimitProblem } from '../domain/usage-limits';
import type { TurnRunnerDeps } from '../turns/turn-runner';
import type { ChatStore } from './chat-store';
import { listModels } from './settings';

export interface ThreadSettings {
  readonly model?: string;
  readonly systemPrompt?: string;
  readonly thinkingBudget?: number;
  /** Tool search for this thread; absent fields follow the profile's settings. */
  readonly toolSearch?: ThreadToolSearchOverrides;
  /** Whether the model may run code that calls tools (execute_code); absent: the profile's choice. */
  readonly codeExecution?: CodeExecutionMode;
  /** Dollars this thread may spend; absent: the default from Settings; null: no cap in this thread. */
  readonly maxCostUsd?: number | null;
}

export interface ThreadSettingsActions {
  setThreadServers(threadId: string, serverIds: readonly string[]): Promise<void>;
  /** Model, system prompt and thinking of one thread; resolves to an error message, or undefined when saved. */
  updateThreadSettings(threadId: string, settings: ThreadSettings): Promise<string | undefined>;
  /** Puts a server's instructions in this thread's system prompt, or leaves them out. */
  setServerInstructions(threadId: string, serverId: string, isOn: boolean): Promise<void>;
  /** The models the profile's endpoint offers with its key (the app's own choices when it lists none), never throws. */
  readonly modelChoices: () => Promise<string[]>;
}

export interface ThreadSettingsContext {
  readonly store: ChatStore;
  readonly deps: TurnRunnerDeps;
  readonly refreshThreads: () => Promise<void>;
}

/** The thread settings actions; a failed write is the chat's notice (or the form's message) and the list is read again. */
export function threadSettingsActions({ store, deps, refreshThreads }: ThreadSettingsContext): ThreadSettingsActions {
  const { storage, profileId } = deps;
  const logger = deps.logger ?? silentLogger;
  return {
    modelChoices: async () => {
      const profile = await storage.profiles
        .get(profileId)
        .catch(logFailure(logger, "Reading the profile's base URL failed; the app's applies", {}));
      const baseUrl = profile?.preferences.baseUrl ?? deps.defaults.baseUrl;
      return listModels(storage, profileId, baseUrl, deps.createModel);
    },
    async setThreadServers(threadId, serverIds) {
      // Shown at once; the write follows (and a failed write is reported and undone by the refresh).
      const before = new Set(store.getState().threads.find((t) => t.id === threadId)?.enabledServerIds ?? []);
      const change = {
        enable: serverIds.filter((id) => !before.has(id)),
        disable: [...before].filter((id) => !serverIds.includes(id)),
      };
      const show = (ids: readonly string[]) =>
        store.setState({
          threads: store.getState().threads.map((t) => (t.id === threadId ? { ...t, enabledServerIds: [...ids] } : t)),
        });
      show(serverIds); // At once, so the switch follows the click; taken back if the limit refuses it.
      if (change.enable.length > 0) {
        // Checked after the switch moved (it must answer the click at once); one past the limit moves back, with why.
        const profile = await storage.profiles
          .get(profileId)
          .catch(
            logFailure(logger, "Reading the profile's servers limit failed; the app's limit applies", { threadId }),
          );
        const limits = resolveUsageLimits(deps.defaults.limits, profile?.preferences.limits ?? {});
        const problem = serverLimitProblem(limits, serverIds.length - 1);
        if (problem) {
          show([...before]);
          store.setState({ note: problem });
          return;
        }
      }
      // Applied as a change to what is stored, so a switch flipped in another tab meanwhile is not undone.
      await storage.threads
        .changeEnabledServers(threadId, change)
        .catch((error: unknown) => store.setState({ notice: describeError(error) }));
      await refreshThreads();
    },
    async updateThreadSettings(threadId, settings) {
      try {
        await storage.threads.update(threadId, (t) => ({
          model: settings.model?.trim() || undefined,
          systemPrompt: settings.systemPrompt?.trim() ? settings.systemPrompt : undefined,
          thinkingBudget: settings.thinkingBudget,
          // The deferral is set apart (thread-tool-choices.ts): the form's choices keep it.
          toolSearch: threadToolSearch({ deferral: t.toolSearch?.deferral, ...settings.toolSearch }),
          codeExecution: settings.codeExecution,
          maxCostUsd: settings.maxCostUsd,
        }));
        await refreshThreads();
        return undefined;
      } catch (error) {
        return describeError(error);
      }
    },
    async setServerInstructions(threadId, serverId, isOn) {
      await storage.threads
        .update(threadId, (t) => {
          const off = new Set(t.instructionsOff ?? []);
          if (isOn) off.delete(serverId);
          else off.add(serverId);
          return { instructionsOff: [...off].sort() };
        })
        .catch((error: unknown) => store.setState({ notice: describeError(error) }));
      await refreshThreads();
    },
  };
}

/** The thread's tool-search choices as stored: unset fields dropped, nothing at all when none is set. */
function threadToolSearch(choices: ThreadToolSearchOverrides | undefined): ThreadToolSearchOverrides | undefined {
  const defined = definedOverrides(choices);
  return Object.keys(defined).length > 0 ? defined : undefined;
}
