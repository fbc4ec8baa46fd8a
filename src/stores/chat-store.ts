import { logFailure, silentLogger } from '../domain/logger';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { exportThreadJson, exportThreadMarkdown } from '../agent/export-thread';
import type { ApprovalRequest } from '../domain/thread-tools';
import { describeError } from '../domain/errors';
import type { Message } from '../domain/message';
import type { MessageMatch } from '../domain/message-text';
import type { PromptTurnMessage } from '../domain/prompt-blocks';
import type { ThreadConfig } from '../domain/thread-config';
import type { ResourceReading } from '../domain/tool-display';
import type { ToolProgress } from '../domain/tool-result';
import type { Approval, TraceEntry } from '../domain/trace';
import type { ContextCompaction } from '../domain/compaction';
import { unansweredCalls } from '../domain/unanswered-calls';
import { newThreadServers, resolveUsageLimits } from '../domain/usage-limits';
import { createBranchActions, type BranchActions } from './branch-actions';
import { createChatTurn, type ModelWait } from './chat-turn';
import { mentionOptions, type MentionOption } from './mention-options';
import { findEmptyThread, isEmptyThread, titleFrom, UNTITLED } from './thread-lifecycle';
import { threadDeletionActions, type ThreadDeletionActions } from './thread-deletion';
import { threadSettingsActions, type ThreadSettingsActions } from './thread-settings-actions';
import { threadToolChoiceActions, type ThreadToolChoiceActions } from './thread-tool-choices';
import {
  isThreadTurnFree,
  resumeUnansweredCalls,
  retryTurn,
  sendMessage,
  sendPromptMessages,
  type OutgoingAttachment,
  type TurnRunnerDeps,
  whenThreadTurnFree,
} from '../turns/turn-runner';
import { followOtherTabTurn } from './other-tab-turn';

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
  extends BranchActions, ThreadToolChoiceActions, ThreadSettingsActions, ThreadDeletionActions {
  refreshThreads(): Promise<void>;
  newThread(): Promise<void>;
  /** Opens a thread; `isRestore` (the profile's last thread at start-up) skips remembering it again. */
  openThread(threadId: string, isRestore?: boolean): Promise<void>;
  /** Opens a thread at a message a search found, its words marked. */
  openThreadAt(threadId: string, reveal: Reveal): Promise<void>;
  renameThread(threadId: string, title: string): Promise<string | undefined>;
  /** The listed threads' latest messages whose text holds `needle` (ignoring case), by thread id. */
  readonly searchMessages: (needle: string) => Promise<ReadonlyMap<string, MessageMatch>>;
  /** The person is about to search: the listed threads' text is read in the background, before they type. */
  readonly prepareSearch: () => void;
  /**
   * Sends the person's message with its attachments (bytes stored first); a refused store is the notice. Resolves, at
   * the end of the turn, to whether the person's message was stored (false also when nothing was sent).
   */
  send(text: string, attachments?: readonly OutgoingAttachment[]): Promise<boolean>;
  /** Sends a server prompt's messages as the turn (their roles and content kept); `title` names an untitled thread. */
  sendPrompt(messages: readonly PromptTurnMessage[], title: string): Promise<void>;
  /** Runs the open thread's failed turn again (its last message is a failed answer), without repeating the person's message. */
  retry(): Promise<void>;
  stop(): void;
  /** Hides the storage notice once the person has read it. */
  dismissNotice(): void;
  /** Hides the note once the person has read it. */
  dismissNote(): void;
  /** The composer's `@` choices: the open thread's enabled servers and their tools, filtered by `query`. */
  mentionOptions(query: string): MentionOption[];
  /** The turn running in this tab, if any: its thread, its signal, and where trace of servers' model calls goes. */
  runningTurn(): RunningTurn | undefined;
  /** Reads a resource of a server (a resource link in a tool result); never throws. */
  readResource: (serverId: string, uri: string) => Promise<ResourceReading>;
  /** The bytes of a sent message's attachment; undefined when they are no longer stored. */
  readAttachment: (id: string) => Promise<Blob | undefined>;
  /** The open thread as a file to download (JSON or Markdown), with its trace. */
  exportThread(
    format: 'json' | 'markdown',
  ): { readonly name: string; readonly type: string; readonly text: string } | undefined;
}

/** The chat: threads of the profile, the open thread's messages, a running turn and its approvals. */
export function createChat(deps: TurnRunnerDeps): { store: ChatStore; actions: ChatActions; dispose: () => void } {
  const store = createStore<ChatState>(() => ({
    threads: [],
    ...NO_THREAD,
    isRunning: false,
    pendingApprovals: [],
    toolProgress: {},
  }));
  const { storage, profileId } = deps;
  const logger = deps.logger ?? silentLogger;
  const turn = createChatTurn({ store, deps, logger, refreshThreads: () => actions.refreshThreads() });
  const { loadMessages, runInThread } = turn;
  const followOtherTab = followOtherTabTurn({
    store,
    isFree: (threadId) => isThreadTurnFree(deps, threadId),
    whenFree: (threadId) => whenThreadTurnFree(deps, threadId),
    reload: (threadId) => loadMessages(threadId),
  });

  const actions: ChatActions = {
    ...createBranchActions({ store, deps, runInThread, loadMessages: (threadId) => loadMessages(threadId) }),
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
    async refreshThreads() {
      const { items, skipped } = await storage.threads.list(profileId);
      const hidden = store.getState().deleting?.thread.id;
      store.setState({
        threads: items.filter((t) => t.id !== hidden),
        ...(skipped.length ? { notice: skipped.map((s) => s.message).join(' ') } : {}),
      });
    },
    async newThread() {
      // An empty thread is not stored twice: New thread opens the one not yet written in, if there is one.
      const { threads, activeThreadId, isRunning, messages } = store.getState();
      const active = threads.find((t) => t.id === activeThreadId);
      if (active?.title === UNTITLED && !isRunning && messages.length === 0) return;
      // No thread is open while the new one is made, so nothing typed meanwhile is sent to the previous one.
      store.setState({ activeThreadId: undefined, ...NO_THREAD });
      const empty = await findEmptyThread(storage, threads);
      if (empty) return actions.openThread(empty.id);
      const profile = await storage.profiles.get(profileId);
      const limits = resolveUsageLimits(deps.defaults.limits, profile?.preferences.limits ?? {});
      const servers = newThreadServers(limits, profile?.defaultServerIds ?? []);
      const thread = await storage.threads.create(profileId, { enabledServerIds: [...servers.ids] });
      await actions.refreshThreads();
      await actions.openThread(thread.id);
      if (servers.note && store.getState().activeThreadId === thread.id) store.setState({ note: servers.note });
    },
    async openThread(threadId, isRestore = false) {
      // The profile's last thread may have been deleted (or be waiting for Undo) when the page closed: it stays closed.
      if (isRestore) {
        const stored = await storage.threads.get(threadId).catch(() => undefined);
        if (stored === undefined || stored.deletedAt !== undefined) return;
      }
      const left = store.getState().threads.find((t) => t.id === store.getState().activeThreadId);
      store.setState({ activeThreadId: threadId, ...NO_THREAD, note: undefined });
      // A thread left as New thread made it (nothing written in it) is not kept.
      if (left && left.id !== threadId && !store.getState().isRunning && (await isEmptyThread(storage, left))) {
        await storage.threads
          .delete(left.id)
          .catch(logFailure(logger, 'Deleting an empty thread failed', { threadId: left.id }));
        await actions.refreshThreads();
      }
      if (!isRestore)
        await storage.profiles
          .update(profileId, (p) => ({ ...p, lastThreadId: threadId }))
          .catch(logFailure(logger, 'Remembering the open thread failed', { threadId }));
      await loadMessages(threadId);
      // A turn the page left waiting on tool calls (a reload during an approval) asks about them again and goes on.
      const { activeThreadId, isRunning, messages } = store.getState();
      const resuming =
        activeThreadId === threadId && !isRunning && unansweredCalls(messages).length > 0
          ? runInThread(threadId, (options) => resumeUnansweredCalls(deps, threadId, options))
          : Promise.resolve();
      // Calls left waiting may be another tab's turn, waiting for its approval there: then that tab answers.
      void resuming.then(() => {
        if (store.getState().activeThreadId === threadId) followOtherTab(threadId);
      });
    },
    async openThreadAt(threadId, reveal) {
      await actions.openThread(threadId);
      if (store.getState().activeThreadId === threadId) store.setState({ reveal });
    },
    searchMessages: (needle) =>
      storage.messages.search(
        store.getState().threads.map((t) => t.id),
        needle,
      ),
    prepareSearch: () => storage.messages.prepareSearch(store.getState().threads.map((t) => t.id)),
    async renameThread(threadId, title) {
      try {
        // A new name is no new activity: the thread keeps its place in the list (as in other chat apps).
        await storage.threads.rename(threadId, title, { isActivity: false });
        await actions.refreshThreads();
        return undefined;
      } catch (error) {
        return describeError(error);
      }
    },
    async send(text, attachments = []) {
      const threadId = store.getState().activeThreadId;
      if (!threadId || store.getState().isRunning || (!text.trim() && attachments.length === 0)) return false;
      const thread = store.getState().threads.find((t) => t.id === threadId);
      // The turn's first person message is this one, told as it is stored (whichever thread is open by then).
      let isStored = false;
      // Titled inside the run: the thread counts as running from the first moment, so a second send or a Retry waits.
      await runInThread(threadId, async (options) => {
        if (thread?.title === UNTITLED) {
          await storage.threads
            .rename(threadId, titleFrom(text.trim() ? text : (attachments[0]?.ref.name ?? '')))
            .catch(logFailure(logger, 'Titling the thread failed', { threadId }));
          await actions.refreshThreads();
        }
        const onMessage = (message: Message) => {
          isStored ||= message.role === 'user';
          options.onMessage?.(message);
        };
        return sendMessage(deps, threadId, text.trim(), { ...options, attachments, onMessage });
      });
      return isStored;
    },
    async sendPrompt(messages, title) {
      const threadId = store.getState().activeThreadId;
      if (!threadId || store.getState().isRunning || messages.length === 0) return;
      const thread = store.getState().threads.find((t) => t.id === threadId);
      await runInThread(threadId, async (options) => {
        if (thread?.title === UNTITLED)
          await storage.threads
            .rename(threadId, titleFrom(title))
            .then(() => actions.refreshThreads())
            .catch(logFailure(logger, 'Titling the thread failed', { threadId }));
        return sendPromptMessages(deps, threadId, messages, options);
      });
    },
    async retry() {
      const threadId = store.getState().activeThreadId;
      if (!threadId || store.getState().isRunning) return;
      await runInThread(threadId, (options) => retryTurn(deps, threadId, options));
    },
    stop() {
      turn.stop();
    },
    dismissNotice() {
      store.setState({ notice: undefined });
    },
    dismissNote() {
      store.setState({ note: undefined });
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
    runningTurn: () => turn.runningTurn(),
    readResource: (serverId, uri) => deps.registry.readResource(serverId, uri),
    readAttachment: (id) => deps.storage.attachments.get(id),
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
    const active = store.getState().activeThreadId;
    if (change.store === 'threads' && change.threadId) {
      void actions.refreshThreads();
      void actions.followDeletionElsewhere(change.threadId);
    }
    if (
      change.store === 'messages' &&
      active !== undefined &&
      change.threadId === active &&
      !store.getState().isRunning
    ) {
      void loadMessages(active);
      followOtherTab(active);
    }
  });
  const dispose = () => {
    turn.stop(); // Calls in flight are cancelled on their servers.
    unsubscribe();
  };
  return { store, actions, dispose };
}
