import type { StoredApprovals } from '../agent/approval-policy';
import { logFailure, type Logger } from '../domain/logger';
import { isSameTrust, trustOf } from '../domain/server-trust';
import type { AskApproval, ThreadTools, ToolCaller, ToolSearchOutcome } from '../domain/thread-tools';
import type { LoadedTool, ThreadConfig } from '../domain/thread-config';
import type { EffectiveTool } from '../domain/tool';
import { resolveToolSearchSettings, type ToolSearchSettings } from '../domain/tool-search-settings';
import type { ToolCallTrace } from '../domain/trace';
import { isAppOnlyTool } from '../mcp/app-resource';
import { modelNamePrefix } from '../mcp/tool-naming';
import type { Registry } from '../mcp/registry';
import type { ToolIndex } from '../search/tool-index';
import { answerToolSearch, selectCallTools, touchLoadedTools } from '../search/tool-selection';
import { createToolCalls, type ApprovalMemory } from './tool-calls';

export interface ThreadToolsDeps {
  readonly registry: Pick<
    Registry,
    'tools' | 'get' | 'resolveToolName' | 'callTool' | 'checkArguments' | 'relistTools'
  >;
  readonly index: Pick<ToolIndex, 'search'>;
  /** Resolves once the index holds the servers' tools as listed now (see tool-index-sync.ts); searches wait for it. */
  readonly indexSettled?: () => Promise<void>;
  readonly settings: ToolSearchSettings;
  readonly contextWindowTokens: number;
  readonly now: () => number;
  readonly thread: ThreadConfig;
  /** The servers enabled in the thread now; read on every use, never a copy from the turn's start. */
  readonly enabledServerIds: () => readonly string[];
  /** Persists the thread's loaded tools (least recently used dropped past the cap). */
  readonly saveLoaded: (loaded: LoadedTool[]) => Promise<void>;
  /** Asks the person before a call the approval policy does not allow by itself. */
  readonly askApproval: AskApproval;
  /** The profile's "always allow" and the thread's "allow for this thread", as stored when the turn began. */
  readonly approvals: StoredApprovals;
  readonly memory: ApprovalMemory;
  readonly hash: (text: string) => Promise<string>;
  readonly logger: Logger;
  /** Told of every call's trace, whoever the caller (the model, code, an app). */
  readonly onTrace?: (trace: ToolCallTrace, caller: ToolCaller) => void;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A thread's tools for one turn: only the servers enabled in the thread, tools not disabled, chosen per model call by
 * tool search (or all of them when there are few), and every call permitted, approved and traced in one place.
 */
export function createThreadTools(deps: ThreadToolsDeps): ThreadTools {
  const { registry, settings, logger } = deps;
  let loaded = deps.thread.loadedTools;
  let isFirstCall = true;
  const isEnabled = (serverId: string) => deps.enabledServerIds().includes(serverId);
  // Tools meant only for their server's app (MCP Apps visibility) are never offered to the model.
  const list = () => registry.tools(deps.enabledServerIds()).filter((tool) => !isAppOnlyTool(tool.definition));
  const resolve = (modelName: string): EffectiveTool | undefined => {
    const ref = registry.resolveToolName(modelName);
    if (!ref || !isEnabled(ref.serverId)) return undefined;
    return registry.tools([ref.serverId]).find((tool) => tool.toolName === ref.toolName);
  };
  // The thread's server whose tools' names begin as this one does (a tool it listed before, or that it lists unsaid).
  const serverOfName = (modelName: string) =>
    deps.enabledServerIds().find((id) => modelName.startsWith(modelNamePrefix(id)));
  // Why the thread has no tool by this name, in words the model (or its code) can act on.
  const whyUnavailable = (modelName: string): string => {
    const ref = registry.resolveToolName(modelName);
    const server = ref && registry.get(ref.serverId);
    if (!ref || !server) {
      const named = registry.get(serverOfName(modelName) ?? '')?.config.name;
      const none = `There is no tool named ${modelName} in this thread`;
      return named === undefined
        ? none
        : `${none}; the tool list of its server ${JSON.stringify(named)} may have changed since you saw it: look for the tool again among the tools offered now, or search for it`;
    }
    const name = JSON.stringify(server.config.name);
    if (!server.config.enabled) return `The server ${name} of ${modelName} is switched off in its configuration`;
    if (!isEnabled(ref.serverId)) return `The server ${name} of ${modelName} is switched off in this thread`;
    // A known name of an enabled server that `resolve` does not find: the person switched the tool off.
    return `${modelName} is switched off in the settings of its server ${name}`;
  };
  // A found tool's server that is down or signed out is said beside it, so the model can tell the person rather
  // than call it blindly (its tools stay offered: it may be back by the call, which connects again).
  const serverNote = (serverId: string): string | undefined => {
    const status = registry.get(serverId)?.state.status;
    if (status === 'error') return 'which is not answering as it should now, so a call may fail';
    if (status === 'needs-auth') return 'which needs the person to sign in again before its tools work';
    return undefined;
  };
  const remember = async (next: LoadedTool[]) => {
    loaded = next;
    // Best-effort: the turn goes on with the in-memory set.
    await deps.saveLoaded(next).catch(logFailure(logger, "Saving the thread's loaded tools failed"));
  };
  const calls = createToolCalls({
    resolve,
    whyUnavailable,
    // At most once per server in a while, and not past the turn's Stop (the listing then finishes on its own).
    relistServerOf: async (modelName, signal) => {
      const serverId = serverOfName(modelName);
      if (serverId !== undefined) await registry.relistTools(serverId, signal);
    },
    refusal: (tool) => {
      const config = registry.get(tool.serverId)?.config;
      // The approval was for the server's identity when the tool was listed; one that moved since is another server.
      if (!isEnabled(tool.serverId))
        return `The server of ${tool.toolName} was switched off in this thread; the tool was not called.`;
      if (!config || !isSameTrust(trustOf(config), tool.trust))
        return `The server of ${tool.toolName} moved to another address (or sign-in) since the call was approved; the tool was not called.`;
      return undefined;
    },
    // Said whose call it is (this thread's turn, or an app of its card): a server may ask the person only then.
    invoke: (tool, args, signal, onProgress, caller) =>
      registry.callTool(tool.serverId, tool.toolName, args, {
        signal,
        ...(onProgress ? { onProgress } : {}),
        from: { threadId: deps.thread.id, isApp: caller?.kind === 'app' },
      }),
    checkArguments: (tool, args) => registry.checkArguments(tool.serverId, tool.toolName, args),
    markUsed: (tool) => remember(touchLoadedTools(loaded, [tool], deps.now(), settings.loadedToolCap)),
    askApproval: deps.askApproval,
    approvals: deps.approvals,
    memory: deps.memory,
    hash: deps.hash,
    logger,
    ...(deps.onTrace ? { onTrace: deps.onTrace } : {}),
  });

  async function search(input: unknown): Promise<ToolSearchOutcome> {
    await deps.indexSettled?.();
    const query = isRecord(input) && typeof input.query === 'string' ? input.query : '';
    const tools = list();
    const answer = answerToolSearch(input, {
      index: deps.index,
      tools,
      settings,
      loadedTools: loaded,
      now: deps.now(),
      serverNote,
    });
    if (!answer.isError) await remember([...answer.loadedTools]);
    const byName = new Map(tools.map((t) => [t.modelName, t]));
    const hits = answer.matches.flatMap((m) => {
      const tool = byName.get(m.modelName);
      return tool ? [{ tool, score: m.score }] : [];
    });
    calls.found(hits.map((h) => h.tool));
    return {
      query,
      content: answer.content,
      isError: answer.isError,
      hits,
      trace: {
        kind: 'tool-search',
        query,
        strategy: settings.strategy,
        picks: hits.map((h) => ({ name: h.tool.modelName, score: h.score })),
      },
    };
  }

  return {
    list,
    resolve,
    whyUnavailable,
    async forCall({ userText, toolSearch }) {
      await deps.indexSettled?.();
      const tools = list();
      const callSettings = resolveToolSearchSettings(settings, toolSearch);
      const serversWith = (deferTools: boolean | 'always') =>
        new Set(
          tools.flatMap((t) => (deps.registry.get(t.serverId)?.config.deferTools === deferTools ? [t.serverId] : [])),
        );
      const chosen = selectCallTools({
        tools,
        loadedTools: loaded,
        pinnedTools: deps.thread.pinnedTools,
        // Preload once per turn: later calls carry those tools as loaded and must not add the next best ones.
        settings: isFirstCall ? callSettings : { ...callSettings, preloadCount: 0 },
        userMessage: userText,
        contextWindowTokens: deps.contextWindowTokens,
        index: deps.index,
        // A server's own deferTools wins over the settings: false always loads, "always" always defers.
        alwaysLoadedServers: serversWith(false),
        alwaysDeferredServers: serversWith('always'),
      });
      calls.offer(chosen.tools);
      isFirstCall = false;
      const offered = [...chosen.preloaded, ...chosen.mentioned];
      // Client mode: what a call offers stays in the thread's list from now on (appended), so the prompt cache holds.
      if (settings.mode === 'client' && offered.length > 0)
        await remember(touchLoadedTools(loaded, offered, deps.now(), settings.loadedToolCap));
      return { definitions: chosen.modelTools, tools: chosen.tools, isDeferred: chosen.selection.isDeferred };
    },
    call: (request) => calls.call(request),
    search: (input) =>
      search(input).catch((error: unknown) => {
        logger.warn('The tool search failed', { error });
        const query = '';
        return {
          query,
          content: 'The tool search failed; try again.',
          isError: true,
          hits: [],
          trace: { kind: 'tool-search', query, strategy: settings.strategy, picks: [] },
        };
      }),
  };
}
