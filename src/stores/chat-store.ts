import { silentLogger } from '../domain/logger';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ApprovalRequest } from '../domain/thread-tools';
import type { Message } from '../domain/message';
import type { ThreadConfig } from '../domain/thread-config';
import type { ToolProgress } from '../domain/tool-result';
import type { Approval, TraceEntry } from '../domain/trace';
import type { ContextCompaction } from '../domain/compaction';
import { createBranchActions, type BranchActions } from './branch-actions';
import { createChatTurn, type ModelWait } from './chat-turn';
import { threadDeletionActions, type ThreadDeletionActions } from './thread-deletion';
import { threadSettingsActions, type ThreadSettingsActions } from './thread-settings-actions';
import { threadToolChoiceActions, type ThreadToolChoiceActions } from './thread-tool-choices';
import { isThreadTurnFree, type TurnRunnerDeps, whenThreadTurnFree } from '../turns/turn-runner';
import { followOtherTabTurn } from './other-tab-turn';
import { followChatChanges } from './chat-changes';
import { chatSendActions, type ChatSendActions } from './chat-send';
import { openThreadReads, type OpenThreadReads } from './open-thread-reads';
import type { CountAsCall } from './server-calls';
import { resumeOrFollow, threadNavigationActions, type ThreadNavigationActions } from './thread-navigation';
import { shareTurnNews } from './turn-news-sharing';
import type { TurnNewsChannel } from '../platform/turn-news';

/** A turn in progress, for a server's request made during it (sampling). */
export interface RunningTurn {
  readonly threadId: string;
  readonly enabledServerIds: readonly string[];
  readonly signal: AbortSignal;
  /** Stores a trace entry with the turn's tool calls (a server's model call counts in the thread's usage). */
  readonly addTrace: (entry: TraceEntry) => void;
}

/** An approval the person has not answered yet, shown inline in the chat. */
export interface PendingApproval extends ApprovalRequest {
  readonly answer: (decision: Approval) => void;
}

export interface ChatState {
  readonly threads: readonly ThreadConfig[];
  readonly activeThreadId?: string;
  /** The open thread's shown branch, first to last. */
  readonly messages: readonly Message[];
  /** For each shown message that has other versions (edits, regenerated answers): every version's id, oldest first. */
  readonly versions: ReadonlyMap<string, readonly string[]>;
  /** The open thread's messages on other branches (their model calls count in its token total). */
  readonly offBranch: readonly Message[];
  /** Compactions of the open thread's model context, oldest first (the view marks where each starts). */
  readonly compactions: readonly ContextCompaction[];
  readonly isRunning: boolean;
  /** The thread whose turn runs (one at a time in a tab), which may not be the open one. */
  readonly runningThreadId?: string;
  readonly pendingApprovals: readonly PendingApproval[];
  /** The latest progress notification of each tool call in flight, by tool_use id. */
  readonly toolProgress: Readonly<Record<string, ToolProgress>>;
  /** Why the answer waits: the API refused an attempt and the client tries again (see modelWaitText). */
  readonly modelWait?: ModelWait;
  /** A thread deleted a moment ago: hidden from the list, stored until the deletion is confirmed (Undo brings it back). */
  readonly deleting?: { readonly thread: ThreadConfig; readonly wasOpen: boolean };
  /** Storage problems (skipped records, a failed write), shown as a notice. */
  readonly notice?: string;
  /** What the person should know though nothing failed (a limit, a thread deleted in another tab); goes when a thread opens. */
  readonly note?: string;
  /** A message of the open thread to bring into view, with the words to mark in it (a message search's find). */
  readonly reveal?: Reveal;
  /** The open thread while another tab writes its answer (other-tab-turn.ts): Send waits for it. */
  readonly answeringElsewhere?: string;
  /** Of that answer, the tool calls that wait for the person's approval in the other tab (undefined: not heard yet). */
  readonly awaitingElsewhere?: readonly string[];
}

/** A message found by a search, to show where it stands in its thread: its id and the words found, as shown. */
export interface Reveal {
  readonly messageId: string;
  readonly words: string;
}

export type ChatStore = StoreApi<ChatState>;

const NO_THREAD = {
  messages: [],
  compactions: [],
  versions: new Map<string, readonly string[]>(),
  offBranch: [],
  reveal: undefined,
};

export interface ChatActions
  extends
    BranchActions,
    ThreadToolChoiceActions,
    ThreadSettingsActions,
    ThreadDeletionActions,
    ThreadNavigationActions,
    ChatSendActions,
    OpenThreadReads {
  stop(): void;
  /** Hides the storage notice once the person has read it. */
  dismissNotice(): void;
  /** Hides the note once the person has read it. */
  dismissNote(): void;
  /** The turn running in this tab, if any: its thread, its signal, and where trace of servers' model calls goes. */
  runningTurn(): RunningTurn | undefined;
}

/** What the chat needs: the turn runner's dependencies, and the other tabs' news of their turns. */
export interface ChatDeps extends TurnRunnerDeps {
  /** Where this tab tells what its turn waits for and hears the other tabs' (their calls show as waiting there). */
  readonly turnNews?: TurnNewsChannel;
}

/** The chat: threads of the profile, the open thread's messages, a running turn and its approvals. */
export function createChat(
  deps: ChatDeps,
  { countAsCall }: { readonly countAsCall?: CountAsCall } = {},
): { store: ChatStore; actions: ChatActions; dispose: () => void } {
  const store = createStore<ChatState>(() => ({
    threads: [],
    ...NO_THREAD,
    isRunning: false,
    pendingApprovals: [],
    toolProgress: {},
  }));
  const { storage } = deps;
  const logger = deps.logger ?? silentLogger;
  const turn = createChatTurn({ store, deps, logger, refreshThreads: () => actions.refreshThreads() });
  const { loadMessages, runInThread } = turn;
  const followOtherTab = followOtherTabTurn({
    store,
    isFree: (threadId) => isThreadTurnFree(deps, threadId),
    whenFree: (threadId) => whenThreadTurnFree(deps, threadId),
    // That tab may have closed on calls left unanswered: this one asks about them, as a reload would there.
    reload: async (threadId) => {
      await loadMessages(threadId);
      await resumeOrFollow({ store, deps, runInThread, followOtherTab }, threadId);
    },
    ask: (threadId) => deps.turnNews?.ask(threadId),
  });

  const actions: ChatActions = {
    ...createBranchActions({
      store,
      deps,
      runInThread,
      loadMessages: (threadId) => loadMessages(threadId),
      savePreview: turn.savePreview,
    }),
    ...threadToolChoiceActions(storage, () => actions.refreshThreads()),
    ...threadSettingsActions({ store, deps, refreshThreads: () => actions.refreshThreads() }),
    ...threadDeletionActions({
      store,
      storage,
      stopTurnIn: (threadId) => {
        if (store.getState().activeThreadId === threadId) actions.stop();
        else if (turn.runningThreadId() === threadId) turn.stop();
      },
      runningThreadId: () => turn.runningThreadId(),
      refreshThreads: () => actions.refreshThreads(),
      openThread: (threadId) => actions.openThread(threadId),
      closed: NO_THREAD,
    }),
    ...threadNavigationActions({ store, deps, logger, loadMessages, runInThread, followOtherTab, closed: NO_THREAD }),
    ...chatSendActions({ store, deps, logger, runInThread, refreshThreads: () => actions.refreshThreads() }),
    ...openThreadReads(store, deps, countAsCall),
    stop() {
      turn.stop();
    },
    dismissNotice() {
      store.setState({ notice: undefined });
    },
    dismissNote() {
      store.setState({ note: undefined });
    },
    runningTurn: () => turn.runningTurn(),
  };

  const unsubscribe = followChatChanges({ store, storage, actions, loadMessages, followOtherTab });
  const stopSharingNews = shareTurnNews(store, deps.turnNews);
  const dispose = () => {
    turn.stop(); // Calls in flight are cancelled on their servers.
    unsubscribe();
    stopSharingNews();
  };
  return { store, actions, dispose };
}
