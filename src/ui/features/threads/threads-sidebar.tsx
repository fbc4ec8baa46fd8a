import { useEffect, useRef, useState } from 'react';
import type { ChatActions, ChatStore } from '../../../stores/chat-store';
import { useStore } from '../../hooks/use-store';
import { ThreadList } from './thread-list';
import './threads.css';

/** How long a deleted thread can be brought back with Undo before it is removed from storage. */
const UNDO_MS = 10_000;

/**
 * The thread list bound to the chat store, with Undo for the thread just deleted; `onGoToChat` is told when the
 * person opens or starts a thread.
 */
export function ThreadsSidebar({
  chat,
  actions,
  onGoToChat,
}: {
  chat: ChatStore;
  actions: ChatActions;
  onGoToChat?: () => void;
}) {
  const threads = useStore(chat, (s) => s.threads);
  const activeId = useStore(chat, (s) => s.activeThreadId);
  const deleting = useStore(chat, (s) => s.deleting);
  const deletingId = deleting?.thread.id;
  // The deletion whose Undo time ran out: its toast goes at once, even while storage is still removing the thread.
  const [expiredId, setExpiredId] = useState<string>();
  const latestActions = useRef(actions);
  useEffect(() => {
    latestActions.current = actions;
  }, [actions]);
  // One timer per deletion, started when it is shown: nothing else that changes restarts it.
  useEffect(() => {
    if (!deletingId) return;
    const timer = setTimeout(() => {
      setExpiredId(deletingId);
      void latestActions.current.confirmDelete();
    }, UNDO_MS);
    return () => clearTimeout(timer);
  }, [deletingId]);
  const shown = deleting && deleting.thread.id !== expiredId ? deleting : undefined;
  return (
    <>
      <ThreadList
        threads={threads}
        activeId={activeId}
        onNew={() => {
          onGoToChat?.();
          void actions.newThread();
        }}
        onOpen={(id) => {
          onGoToChat?.();
          void actions.openThread(id);
        }}
        onDelete={(id) => void actions.deleteThread(id)}
        onRename={(id, title) => actions.renameThread(id, title)}
      />
      <div className="undo-toast-region" role="status" aria-live="polite">
        {shown && (
          <div className="undo-toast">
            <span>Deleted “{shown.thread.title}”.</span>
            <button type="button" onClick={() => void actions.undoDelete()}>
              Undo
            </button>
            <button
              type="button"
              className="icon secondary"
              aria-label="Dismiss (delete now)"
              onClick={() => void actions.confirmDelete()}
            >
              ×
            </button>
          </div>
        )}
      </div>
    </>
  );
}
