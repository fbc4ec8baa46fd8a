// The turn running in this tab's chat: its approvals, live messages, tool progress and the trace of servers' model
// calls; and reading the open thread's messages, as a turn ends or the thread opens.
import { logFailure, type Logger } from '../domain/logger';
import { AppError, describeError } from '../domain/errors';
import type { Message } from '../domain/message';
import type { ToolProgress } from '../domain/tool-result';
import type { TraceEntry } from '../domain/trace';
import { NOT_SAVED_NOTE, recoverInterruptedAnswers, type SendOptions, type TurnRunnerDeps } from '../turns/turn-runner';
import { coalesceLatest, coalesceMessages, mergeMessages } from './live-messages';
import { previewOf } from './thread-lifecycle';
import type { ChatStore, RunningTurn } from './chat-store';
import { askThroughList } from './pending-approvals';
import type { ModelRetry } from '../agent/model-port';

export interface ChatTurnContext {
  readonly store: ChatStore;
  readonly deps: TurnRunnerDeps;
  readonly logger: Logger;
  readonly refreshThreads: () => Promise<void>;
}

/** At most one turn at a time in this tab's chat, and the open thread's messages as stored. */
export interface ChatTurn {
  /**
   * Loads the thread's stored messages; `ended` are this tab's last word on the messages of a turn that just ended.
   * Resolves to the thread's shown branch as loaded (also when another thread was opened meanwhile).
   */
  readonly loadMessages: (threadId: string, ended?: ReadonlyMap<string, Message>) => Promise<readonly Message[]>;
  /** Stores the thread's preview line from its shown branch's latest answer (none: no line) and lists it. */
  readonly savePreview: (
    threadId: string,
    shown: readonly Message[],
    options?: { readonly isActivity?: boolean },
  ) => Promise<void>;
  /** Runs a turn of the thread with the store's approvals and live messages; failures become the notice. */
  readonly runInThread: (threadId: string, start: (options: SendOptions) => Promise<unknown>) => Promise<void>;
  /** The turn running in this tab, if any: its thread, its signal, and where trace of servers' model calls goes. */
  runningTurn(): RunningTurn | undefined;
  /** The thread whose turn runs in this tab, if any. */
  runningThreadId(): string | undefined;
  /** Stops the running turn: its tool calls in flight are cancelled on their servers. */
  stop(): void;
}

/** The chat's turn runner and message loading over the chat store. */
export function createChatTurn({ store, deps, logger, refreshThreads }: ChatTurnContext): ChatTurn {
  const { storage } = deps;
  let controller: AbortController | undefined;
  let runningThreadId: string | undefined;
  let sideTrace: TraceEntry[] = [];
  let stopProgress = () => undefined as void;

  const loadMessages = async (threadId: string, ended?: ReadonlyMap<string, Message>) => {
    let loaded = await storage.messages.list(threadId);
    let { items, skipped } = loaded;
    // An answer left "streaming" by a closed tab is marked interrupted. If storage refuses that mark too (a full disk),
    // no turn runs it any more all the same (its lock was free): it shows as failed, with Retry, not "in progress".
    let isMarkRefused = false;
    const hasOrphan =
      items.some((m) => m.status === 'streaming') &&
      (await recoverInterruptedAnswers(deps, threadId).catch((error: unknown) => {
        isMarkRefused = error instanceof AppError;
        return 0;
      })) > 0;
    if (hasOrphan) ({ items, skipped } = loaded = await storage.messages.list(threadId));
    // Storage refused the end of an answer: it stays as this tab saw it end (all of it, with its error), if it did;
    // also when the small "interrupted" mark just above fitted where the whole answer did not (a nearly full disk).
    if (ended)
      items = items.map((m) =>
        (m.status === 'streaming' || m.status === 'interrupted') && ended.get(m.id)?.status === 'error'
          ? ended.get(m.id)!
          : m,
      );
    if (isMarkRefused)
      items = items.map((m) => (m.status === 'streaming' ? { ...m, status: 'error', error: NOT_SAVED_NOTE } : m));
    const compactions = await storage.compactions.list(threadId);
    skipped = [...skipped, ...compactions.skipped];
    if (store.getState().activeThreadId !== threadId) return items;
    const shown = new Set(items.map((m) => m.id));
    store.setState({
      messages: items,
      versions: loaded.versions,
      offBranch: loaded.offBranch,
      // A compaction summarizes the messages before its first kept one: it holds on a branch that has that message.
      compactions: compactions.items.filter((r) => shown.has(r.firstKeptMessageId)),
      ...(skipped.length ? { notice: skipped.map((s) => s.message).join(' ') } : {}),
    });
    return items;
  };

  // The line follows the branch shown, not the turn that ended: an edit whose answer brought no text leaves none of
  // the branch it left.
  const savePreview: ChatTurn['savePreview'] = async (threadId, shown, options) => {
    await storage.threads
      .update(threadId, () => ({ preview: previewOf(shown) }), options)
      .catch(logFailure(logger, 'Saving the thread preview failed', { threadId }));
    await refreshThreads();
  };

  const runInThread = async (threadId: string, start: (options: SendOptions) => Promise<unknown>) => {
    controller = new AbortController();
    runningThreadId = threadId;
    sideTrace = [];
    store.setState({ isRunning: true, runningThreadId: threadId });
    const live = coalesceMessages((changed) => {
      if (store.getState().activeThreadId === threadId)
        store.setState({ messages: mergeMessages(store.getState().messages, changed) });
    });
    const ended = new Map<string, Message>();
    const onMessage = (message: Message) => {
      ended.set(message.id, message);
      live.push(message);
    };
    const askApproval = askThroughList(
      () => store.getState().pendingApprovals,
      (pendingApprovals) => store.setState({ pendingApprovals }),
    );
    try {
      const enabledServerIds = () => store.getState().threads.find((t) => t.id === threadId)?.enabledServerIds ?? [];
      // The latest progress per call, written once a frame: a server's thousands of notifications are one write.
      const progressByCall = coalesceLatest<string, ToolProgress>((changed) => {
        if (runningThreadId === threadId)
          store.setState({ toolProgress: { ...store.getState().toolProgress, ...Object.fromEntries(changed) } });
      });
      stopProgress = progressByCall.clear;
      const onToolProgress = (toolUseId: string, progress: ToolProgress) => progressByCall.push(toolUseId, progress);
      const takeSideTrace = () => sideTrace.splice(0);
      const onModelRetry = (retry: ModelRetry | undefined) =>
        store.setState({
          modelWait: retry && {
            status: retry.status,
            ...(retry.seconds !== undefined ? { retryAt: Date.now() + retry.seconds * 1000 } : {}),
          },
        });
      await start({
        askApproval,
        onMessage,
        onToolProgress,
        onModelRetry,
        signal: controller.signal,
        enabledServerIds,
        takeSideTrace,
      });
    } catch (error) {
      store.setState({ notice: describeError(error) });
    } finally {
      live.flush();
      stopProgress();
      controller = undefined;
      runningThreadId = undefined;
      store.setState({
        isRunning: false,
        runningThreadId: undefined,
        pendingApprovals: [],
        toolProgress: {},
        modelWait: undefined,
      });
      await savePreview(threadId, await loadMessages(threadId, ended));
    }
  };

  return {
    loadMessages,
    savePreview,
    runInThread,
    runningTurn() {
      if (!runningThreadId || !controller) return undefined;
      const trace = sideTrace;
      return {
        threadId: runningThreadId,
        enabledServerIds: store.getState().threads.find((t) => t.id === runningThreadId)?.enabledServerIds ?? [],
        signal: controller.signal,
        addTrace: (entry) => void trace.push(entry),
      };
    },
    runningThreadId: () => runningThreadId,
    stop() {
      controller?.abort();
    },
  };
}

/** An answer waiting because the API refused an attempt: its status, and when the next attempt goes (epoch ms). */
export interface ModelWait {
  readonly status: number;
  readonly retryAt?: number;
}

/**
 * Why an answer waits, in a sentence: what the API answered and when the app tries again, counted from `now` (epoch
 * ms); without `now`, only that it will (for the announcement, which must not change every second).
 */
export function modelWaitText(wait: ModelWait, now?: number): string {
  const why =
    wait.status === 429
      ? 'The API is rate-limiting this key (429)'
      : wait.status === 529
        ? 'The API is overloaded (529)'
        : `The API could not answer (${wait.status})`;
  if (now === undefined) return `${why}; the app tries again by itself.`;
  const left = wait.retryAt === undefined ? undefined : Math.ceil((wait.retryAt - now) / 1000);
  const when = left === undefined ? 'shortly' : left > 0 ? `in ${left.toLocaleString('en-US')} s` : 'now';
  return `${why}: trying again ${when}…`;
}
