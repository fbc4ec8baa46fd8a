import type { CodeExecutionMode } from '../domain/code-execution';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { exportThreadJson, exportThreadMarkdown } from '../agent/export-thread';
import type { ApprovalRequest } from '../domain/thread-tools';
import { AppError, describeError } from '../domain/errors';
import type { Message } from '../domain/message';
import type { ThreadConfig } from '../domain/thread-config';
import type { Approval } from '../domain/trace';
import { resolveUsageLimits, serverLimitProblem } from '../domain/usage-limits';
import { coalesceMessages, mergeMessages } from './live-messages';
import { mentionOptions, type MentionOption } from './mention-options';
import {
  NOT_SAVED_NOTE,
  recoverInterruptedAnswers,
  retryTurn,
  sendMessage,
  type SendOptions,
  type TurnRunnerDeps,
} from '../turns/turn-runner';

/** An approval the person has not answered yet, shown inline in the chat. */
export interface PendingApproval extends ApprovalRequest {
  readonly answer: (decision: Approval) => void;
}

export interface ChatState {
  readonly threads: readonly ThreadConfig[];
  readonly activeThreadId?: string;
  readonly messages: readonly Message[];
  readonly isRunning: boolean;
  readonly pendingApprovals: readonly PendingApproval[];
  /** Storage problems (skipped records, a failed write), shown as a notice. */
  readonly notice?: string;
}

export type ChatStore = StoreApi<ChatState>;

export interface ThreadSettings {
  readonly model?: string;
  readonly systemPrompt?: string;
  readonly thinkingBudget?: number;
  /** Whether the model may run code that calls tools (execute_code); absent: the profile's choice. */
  readonly codeExecution?: CodeExecutionMode;
}

export interface ChatActions {
  refreshThreads(): Promise<void>;
  newThread(): Promise<void>;
  /** Opens a thread; `isRestore` (the profile's last thread at start-up) skips remembering it again. */
  openThread(threadId: string, isRestore?: boolean): Promise<void>;
  renameThread(threadId: string, title: string): Promise<string | undefined>;
  deleteThread(threadId: string): Promise<void>;
  setThreadServers(threadId: string, serverIds: readonly string[]): Promise<void>;
  /** Model, system prompt and thinking of one thread; resolves to an error message, or undefined when saved. */
  updateThreadSettings(threadId: string, settings: ThreadSettings): Promise<string | undefined>;
  send(text: string): Promise<void>;
  /** Runs the open thread's failed turn again (its last message is a failed answer), without repeating the person's message. */
  retry(): Promise<void>;
  stop(): void;
  /** Hides the storage notice once the person has read it. */
  dismissNotice(): void;
  /** The composer's `@` choices: the open thread's enabled servers and their tools, filtered by `query`. */
  mentionOptions(query: string): MentionOption[];
  /** The open thread as a file to download (JSON or Markdown), with its trace. */
  exportThread(
    format: 'json' | 'markdown',
  ): { readonly name: string; readonly type: string; readonly text: string } | undefined;
}

/** The chat: threads of the profile, the open thread's messages, a running turn and its approvals. */
export function createChat(deps: TurnRunnerDeps): { store: ChatStore; actions: ChatActions; dispose: () => void } {
  const store = createStore<ChatState>(() => ({ threads: [], messages: [], isRunning: false, pendingApprovals: [] }));
  const { storage, profileId } = deps;
  let controller: AbortController | undefined;

  /** Loads the thread's stored messages; `ended` are this tab's last word on the messages of a turn that just ended. */
  const loadMessages = async (threadId: string, ended?: ReadonlyMap<string, Message>) => {
    let { items, skipped } = await storage.messages.list(threadId);
    // An answer left "streaming" by a closed tab is marked interrupted. If storage refuses that mark too (a full disk),
    // no turn runs it any more all the same (its lock was free): it shows as failed, with Retry, not "in progress".
    let isMarkRefused = false;
    const hasOrphan =
      items.some((m) => m.status === 'streaming') &&
      (await recoverInterruptedAnswers(deps, threadId).catch((error: unknown) => {
        isMarkRefused = error instanceof AppError;
        return 0;
      })) > 0;
    if (hasOrphan) ({ items, skipped } = await storage.messages.list(threadId));
    // Storage refused the end of an answer: it stays as this tab saw it end (all of it, with its error), if it did.
    if (ended)
      items = items.map((m) =>
        m.status === 'streaming' && ended.get(m.id)?.status === 'error' ? ended.get(m.id)! : m,
      );
    if (isMarkRefused)
      items = items.map((m) => (m.status === 'streaming' ? { ...m, status: 'error', error: NOT_SAVED_NOTE } : m));
    if (store.getState().activeThreadId !== threadId) return;
    store.setState({ messages: items, ...(skipped.length ? { notice: skipped.map((s) => s.message).join(' ') } : {}) });
  };

  /** Runs a turn of the thread with the store's approvals and live messages; failures become the notice. */
  const runInThread = async (threadId: string, start: (options: SendOptions) => Promise<unknown>) => {
    controller = new AbortController();
    store.setState({ isRunning: true });
    const live = coalesceMessages((changed) => {
      if (store.getState().activeThreadId === threadId)
        store.setState({ messages: mergeMessages(store.getState().messages, changed) });
    });
    const ended = new Map<string, Message>();
    const onMessage = (message: Message) => {
      ended.set(message.id, message);
      live.push(message);
    };
    const askApproval = (request: ApprovalRequest, signal: AbortSignal) =>
      new Promise<Approval>((resolve) => {
        if (signal.aborted) return resolve('deny'); // Stopped before the question came up.
        const pending: PendingApproval = {
          ...request,
          answer: (decision) => {
            store.setState({ pendingApprovals: store.getState().pendingApprovals.filter((p) => p !== pending) });
            resolve(decision);
          },
        };
        signal.addEventListener('abort', () => pending.answer('deny'), { once: true });
        store.setState({ pendingApprovals: [...store.getState().pendingApprovals, pending] });
      });
    try {
      const enabledServerIds = () => store.getState().threads.find((t) => t.id === threadId)?.enabledServerIds ?? [];
      await start({ askApproval, onMessage, signal: controller.signal, enabledServerIds });
    } catch (error) {
      store.setState({ notice: describeError(error) });
    } finally {
      live.flush();
      controller = undefined;
      store.setState({ isRunning: false, pendingApprovals: [] });
      await loadMessages(threadId, ended);
      await actions.refreshThreads();
    }
  };

  const actions: ChatActions = {
    async refreshThreads() {
      const { items, skipped } = await storage.threads.list(profileId);
      store.setState({
        threads: items,
        ...(skipped.length ? { notice: skipped.map((s) => s.message).join(' ') } : {}),
      });
    },
    async newThread() {
      // No thread is open while the new one is made, so nothing typed meanwhile is sent to the previous one.
      store.setState({ activeThreadId: undefined, messages: [] });
      const profile = await storage.profiles.get(profileId);
      const thread = await storage.threads.create(profileId, { enabledServerIds: profile?.defaultServerIds ?? [] });
      await actions.refreshThreads();
      await actions.openThread(thread.id);
    },
    async openThread(threadId, isRestore = false) {
      store.setState({ activeThreadId: threadId, messages: [] });
      if (!isRestore)
        await storage.profiles.update(profileId, (p) => ({ ...p, lastThreadId: threadId })).catch(() => undefined);
      await loadMessages(threadId);
    },
    async renameThread(threadId, title) {
      try {
        await storage.threads.rename(threadId, title);
        await actions.refreshThreads();
        return undefined;
      } catch (error) {
        return describeError(error);
      }
    },
    async deleteThread(threadId) {
      await storage.threads.delete(threadId);
      if (store.getState().activeThreadId === threadId) store.setState({ activeThreadId: undefined, messages: [] });
      await actions.refreshThreads();
    },
    async setThreadServers(threadId, serverIds) {
      // Shown at once; the write follows (and a failed write is reported and undone by the refresh).
      const before = new Set(store.getState().threads.find((t) => t.id === threadId)?.enabledServerIds ?? []);
      const change = {
        enable: serverIds.filter((id) => !before.has(id)),
        disable: [...before].filter((id) => !serverIds.includes(id)),
      };
      if (change.enable.length > 0) {
        const profile = await storage.profiles.get(profileId).catch(() => undefined);
        const limits = resolveUsageLimits(deps.defaults.limits, profile?.preferences.limits ?? {});
        const problem = serverLimitProblem(limits, serverIds.length - 1);
        if (problem) {
          store.setState({ notice: problem });
          return;
        }
      }
      store.setState({
        threads: store
          .getState()
          .threads.map((t) => (t.id === threadId ? { ...t, enabledServerIds: [...serverIds] } : t)),
      });
      // Applied as a change to what is stored, so a switch flipped in another tab meanwhile is not undone.
      await storage.threads
        .changeEnabledServers(threadId, change)
        .catch((error: unknown) => store.setState({ notice: describeError(error) }));
      await actions.refreshThreads();
    },
    async updateThreadSettings(threadId, settings) {
      try {
        await storage.threads.update(threadId, () => ({
          model: settings.model?.trim() || undefined,
          systemPrompt: settings.systemPrompt?.trim() ? settings.systemPrompt : undefined,
          thinkingBudget: settings.thinkingBudget,
          codeExecution: settings.codeExecution,
        }));
        await actions.refreshThreads();
        return undefined;
      } catch (error) {
        return describeError(error);
      }
    },
    async send(text) {
      const threadId = store.getState().activeThreadId;
      if (!threadId || store.getState().isRunning || !text.trim()) return;
      const thread = store.getState().threads.find((t) => t.id === threadId);
      // Titled inside the run: the thread counts as running from the first moment, so a second send or a Retry waits.
      await runInThread(threadId, async (options) => {
        if (thread?.title === 'New thread') {
          await storage.threads.rename(threadId, titleFrom(text)).catch(() => undefined);
          await actions.refreshThreads();
        }
        return sendMessage(deps, threadId, text.trim(), options);
      });
    },
    async retry() {
      const threadId = store.getState().activeThreadId;
      if (!threadId || store.getState().isRunning) return;
      await runInThread(threadId, (options) => retryTurn(deps, threadId, options));
    },
    stop() {
      controller?.abort();
    },
    dismissNotice() {
      store.setState({ notice: undefined });
    },
    mentionOptions(query) {
      const { threads, activeThreadId } = store.getState();
      const enabled = threads.find((t) => t.id === activeThreadId)?.enabledServerIds ?? [];
      const servers = enabled.flatMap((id) => {
        const server = deps.registry.get(id);
        return server?.config.enabled ? [{ id, name: server.config.name }] : [];
      });
      return mentionOptions(servers, deps.registry.tools(servers.map((s) => s.id)), query);
    },
    exportThread(format) {
      const { threads, activeThreadId, messages } = store.getState();
      const thread = threads.find((t) => t.id === activeThreadId);
      if (!thread) return undefined;
      const base =
        thread.title
          .replace(/[^\w -]+/g, '')
          .trim()
          .slice(0, 60) || 'thread';
      return format === 'json'
        ? { name: `${base}.json`, type: 'application/json', text: exportThreadJson(thread, messages) }
        : { name: `${base}.md`, type: 'text/markdown', text: exportThreadMarkdown(thread, messages) };
    },
  };

  const unsubscribe = storage.changes.subscribe((change) => {
    // A server removed or moved to another origin (in this tab too) leaves the threads it was enabled in.
    if (change.store === 'threads' && !change.threadId) void actions.refreshThreads();
    if (!change.isRemote) return;
    if (change.store === 'threads' && change.threadId) void actions.refreshThreads();
    const active = store.getState().activeThreadId;
    if (
      change.store === 'messages' &&
      active !== undefined &&
      change.threadId === active &&
      !store.getState().isRunning
    )
      void loadMessages(active);
  });
  return { store, actions, dispose: unsubscribe };
}

/** A thread title from its first message. */
function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || 'New thread';
}
