// Deleting a thread with Undo: hidden at once, marked in storage (so a reload or a closed tab within Undo's time does
// not bring it back), removed when Undo's time is up, or brought back by Undo.
import { describeError, NotFoundError } from '../domain/errors';
import type { Storage } from '../storage/storage';
import type { ChatStore } from './chat-store';

export interface ThreadDeletionActions {
  /** Hides the thread at once, marked in storage; confirmDelete (or the next deletion) removes it, undoDelete keeps it. */
  deleteThread(threadId: string): Promise<void>;
  undoDelete(): Promise<void>;
  confirmDelete(): Promise<void>;
  /**
   * Another tab changed `threadId`: if it deleted it (or marked it for Undo there), its turn here stops and it closes;
   * brought back by Undo there, it opens again here if nothing else was opened meanwhile.
   */
  followDeletionElsewhere(threadId: string): Promise<void>;
}

export interface ThreadDeletionContext {
  readonly store: ChatStore;
  readonly storage: Pick<Storage, 'threads'>;
  /** Ends the turn running in `threadId`, if any (its tool calls in flight are cancelled on their servers). */
  readonly stopTurnIn: (threadId: string) => void;
  /** The thread whose turn runs in this tab, if any. */
  readonly runningThreadId: () => string | undefined;
  readonly refreshThreads: () => Promise<void>;
  readonly openThread: (threadId: string) => Promise<void>;
  /** The state of no open thread. */
  readonly closed: Partial<ReturnType<ChatStore['getState']>>;
}

export const ALREADY_REMOVED = 'This thread was already removed; it cannot be brought back.';
export const DELETED_ELSEWHERE = 'This thread was deleted in another tab.';

export function threadDeletionActions(context: ThreadDeletionContext): ThreadDeletionActions {
  const { store, storage, refreshThreads, openThread } = context;
  /** The thread this tab closed because another tab deleted it (Undo there may bring it back), until one opens. */
  let closedElsewhere: string | undefined;
  store.subscribe((now, before) => {
    if (now.activeThreadId !== undefined && now.activeThreadId !== before.activeThreadId) closedElsewhere = undefined;
  });
  const actions: ThreadDeletionActions = {
    async deleteThread(threadId) {
      const thread = store.getState().threads.find((t) => t.id === threadId);
      if (!thread) return;
      await actions.confirmDelete(); // One deletion waits for Undo at a time.
      const wasOpen = store.getState().activeThreadId === threadId;
      context.stopTurnIn(threadId);
      // Hidden before the mark is written, so a second Delete meanwhile finds it gone.
      store.setState({
        deleting: { thread, wasOpen },
        threads: store.getState().threads.filter((t) => t.id !== threadId),
        ...(wasOpen ? { activeThreadId: undefined, ...context.closed } : {}),
      });
      try {
        await storage.threads.markDeleted(threadId, true);
      } catch (error) {
        // Not marked, so nothing was deleted: the thread comes back.
        if (store.getState().deleting?.thread.id === threadId) store.setState({ deleting: undefined });
        store.setState({ notice: describeError(error) });
        await refreshThreads();
        if (wasOpen && store.getState().activeThreadId === undefined) await openThread(threadId);
      }
    },
    async undoDelete() {
      const deleting = store.getState().deleting;
      if (!deleting) return;
      store.setState({ deleting: undefined });
      try {
        await storage.threads.markDeleted(deleting.thread.id, false);
      } catch (error) {
        store.setState(error instanceof NotFoundError ? { note: ALREADY_REMOVED } : { notice: describeError(error) });
        await refreshThreads();
        return;
      }
      await refreshThreads();
      if (deleting.wasOpen && store.getState().activeThreadId === undefined) await openThread(deleting.thread.id);
    },
    async confirmDelete() {
      const deleting = store.getState().deleting;
      if (!deleting) return;
      store.setState({ deleting: undefined }); // Undo is over from here.
      try {
        await storage.threads.delete(deleting.thread.id);
      } catch (error) {
        store.setState({ notice: describeError(error) });
      }
      await refreshThreads();
    },
    async followDeletionElsewhere(threadId) {
      const isHere = store.getState().activeThreadId === threadId || context.runningThreadId() === threadId;
      if (!isHere && closedElsewhere !== threadId) return;
      const stored = await storage.threads.get(threadId).catch(() => ({ deletedAt: undefined })); // Unread: kept.
      if (stored !== undefined && stored.deletedAt === undefined) {
        if (closedElsewhere !== threadId) return;
        closedElsewhere = undefined;
        const { activeThreadId, note } = store.getState();
        if (activeThreadId !== undefined) return; // The person opened another meanwhile.
        if (note === DELETED_ELSEWHERE) store.setState({ note: undefined });
        return openThread(threadId);
      }
      context.stopTurnIn(threadId);
      if (store.getState().activeThreadId !== threadId) return;
      closedElsewhere = threadId;
      // Out of the list in the same step: its draft then stays in the box (see followThreadDrafts).
      const threads = store.getState().threads.filter((t) => t.id !== threadId);
      store.setState({ activeThreadId: undefined, threads, ...context.closed, note: DELETED_ELSEWHERE });
    },
  };
  return actions;
}
