import { logFailure, type Logger } from '../domain/logger';
import { describeError, ValidationError } from '../domain/errors';
import type { MessageMatch } from '../domain/message-text';
import { unansweredCalls } from '../domain/unanswered-calls';
import { newThreadServers, resolveUsageLimits } from '../domain/usage-limits';
import { resumeUnansweredCalls, type TurnRunnerDeps } from '../turns/turn-runner';
import type { ChatState, ChatStore, Reveal } from './chat-store';
import type { ChatTurn } from './chat-turn';
import { findEmptyThread, isEmptyThread, UNTITLED } from './thread-lifecycle';

/** The profile's threads: listing, making, opening, renaming and searching them. */
export interface ThreadNavigationActions {
  refreshThreads(): Promise<void>;
  /** Opens a thread not yet written in (an empty one if there is one); resolves to its id. */
  newThread(): Promise<string | undefined>;
  /** Opens a thread; `isRestore` (the profile's last thread at start-up) skips remembering it again. */
  openThread(threadId: string, isRestore?: boolean): Promise<void>;
  /** Opens a thread at a message a search found, its words marked. */
  openThreadAt(threadId: string, reveal: Reveal): Promise<void>;
  /** Renames a thread; resolves to why it was not renamed (a refused title in plain words), else to undefined. */
  renameThread(threadId: string, title: string): Promise<string | undefined>;
  /** The listed threads' latest messages whose text holds `needle` (ignoring case), by thread id. */
  readonly searchMessages: (needle: string) => Promise<ReadonlyMap<string, MessageMatch>>;
  /** The person is about to search: the listed threads' text is read in the background, before they type. */
  readonly prepareSearch: () => void;
}

export interface ThreadNavigationContext {
  readonly store: ChatStore;
  readonly deps: TurnRunnerDeps;
  readonly logger: Logger;
  readonly loadMessages: ChatTurn['loadMessages'];
  readonly runInThread: ChatTurn['runInThread'];
  /** Follows another tab's turn in the thread (other-tab-turn.ts). */
  readonly followOtherTab: (threadId: string) => void;
  /** The state of no open thread. */
  readonly closed: Partial<ChatState>;
}

export function threadNavigationActions({
  store,
  deps,
  logger,
  loadMessages,
  runInThread,
  followOtherTab,
  closed: NO_THREAD,
}: ThreadNavigationContext): ThreadNavigationActions {
  const { storage, profileId } = deps;
  const actions: ThreadNavigationActions = {
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
      if (active?.title === UNTITLED && !isRunning && messages.length === 0) return activeThreadId;
      // No thread is open while the new one is made, so nothing typed meanwhile is sent to the previous one.
      store.setState({ activeThreadId: undefined, ...NO_THREAD });
      const empty = await findEmptyThread(storage, threads);
      if (empty) {
        await actions.openThread(empty.id);
        return empty.id;
      }
      const profile = await storage.profiles.get(profileId);
      const limits = resolveUsageLimits(deps.defaults.limits, profile?.preferences.limits ?? {});
      const servers = newThreadServers(limits, profile?.defaultServerIds ?? []);
      const thread = await storage.threads.create(profileId, { enabledServerIds: [...servers.ids] });
      await actions.refreshThreads();
      await actions.openThread(thread.id);
      if (servers.note && store.getState().activeThreadId === thread.id) store.setState({ note: servers.note });
      return thread.id;
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
      void resumeOrFollow({ store, deps, runInThread, followOtherTab }, threadId);
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
        // A refused title is said as the rule it breaks, without the schema's "Thread is invalid: title:" around it.
        if (error instanceof ValidationError) return error.issues.map((issue) => issue.message).join(' ');
        return describeError(error);
      }
    },
  };
  return actions;
}

/**
 * The open thread's loaded messages taken up: a turn the page left waiting on tool calls (a reload during an approval,
 * or another tab closed during one) asks about them again and goes on; calls left waiting may instead be another
 * tab's turn, waiting for its approval there (that tab answers), which is then followed until it ends.
 */
export async function resumeOrFollow(
  context: Pick<ThreadNavigationContext, 'store' | 'deps' | 'runInThread' | 'followOtherTab'>,
  threadId: string,
): Promise<void> {
  const { store, deps, runInThread, followOtherTab } = context;
  const { activeThreadId, isRunning, messages } = store.getState();
  if (activeThreadId === threadId && !isRunning && unansweredCalls(messages).length > 0)
    await runInThread(threadId, (options) => resumeUnansweredCalls(deps, threadId, options));
  if (store.getState().activeThreadId === threadId) followOtherTab(threadId);
}
