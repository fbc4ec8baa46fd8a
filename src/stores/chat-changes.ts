import type { Storage } from '../storage/storage';
import type { ChatStore } from './chat-store';

export interface ChatChangesContext {
  readonly store: ChatStore;
  readonly storage: Pick<Storage, 'changes'>;
  readonly actions: {
    readonly refreshThreads: () => Promise<void>;
    readonly followDeletionElsewhere: (threadId: string) => Promise<void>;
  };
  readonly loadMessages: (threadId: string) => Promise<unknown>;
  /** Follows another tab's turn in the thread (other-tab-turn.ts). */
  readonly followOtherTab: (threadId: string) => void;
}

/** Keeps the chat in step with stored changes: the thread list, and the open thread's messages another tab wrote. */
export function followChatChanges({
  store,
  storage,
  actions,
  loadMessages,
  followOtherTab,
}: ChatChangesContext): () => void {
  return storage.changes.subscribe((change) => {
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
}
