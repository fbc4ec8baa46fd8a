import { useEffect, useRef, useState } from 'react';
import type { ChatActions, ChatStore } from '../../../stores/chat-store';
import { isFocusLost } from '../../hooks/focus-lost';
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
  // This tab's turn, or another tab's in the open thread (that tab's own list says so too).
  const runningId = useStore(chat, (s) => s.runningThreadId ?? s.answeringElsewhere);
  const deleting = useStore(chat, (s) => s.deleting);
  const deletingId = deleting?.thread.id;
  // The deletion whose Undo time ran out: its toast goes at once, even while storage is still removing the thread.
  const [expiredId, setExpiredId] = useState<string>();
  const latestActions = useRef(actions);
  useEffect(() => {
    latestActions.current = actions;
  }, [actions]);
  // While the pointer or focus is on the toast its time stands still (someone reading it, or about to press Undo,
  // gets all of it); it starts again, whole, when they leave.
  type Deleting = NonNullable<typeof deleting>;
  const [focusOn, setFocusOn] = useState<Deleting>();
  const [pointerOn, setPointerOn] = useState<Deleting>();
  // By the deletion itself (a new one each time, even of the same thread): a toast that went with the focus or the
  // pointer on it (Undo pressed; no blur or leave comes then) holds no later one.
  const isHeld = deleting !== undefined && (focusOn === deleting || pointerOn === deleting);
  // One timer per deletion, started when it is shown and when the toast is let go; nothing else restarts it.
  useEffect(() => {
    if (!deletingId || isHeld) return;
    const timer = setTimeout(() => {
      setExpiredId(deletingId);
      void latestActions.current.confirmDelete();
    }, UNDO_MS);
    return () => clearTimeout(timer);
  }, [deletingId, isHeld]);
  const shown = deleting && deleting.thread.id !== expiredId ? deleting : undefined;
  // Focus that falls to the page when a thread's row or the toast goes: Undo when the toast comes; when it goes, the
  // open thread (else New thread), and the thread brought back by Undo once it is listed again.
  const region = useRef<HTMLDivElement>(null);
  const shownId = shown?.thread.id;
  const lastShownId = useRef<string>(undefined);
  const goingBack = useRef<{ readonly id: string; readonly from: HTMLElement }>(undefined);
  useEffect(() => {
    const before = lastShownId.current;
    lastShownId.current = shownId;
    const nav = region.current?.parentElement?.querySelector<HTMLElement>('nav.threads');
    if (before !== shownId) {
      goingBack.current = undefined;
      if (!isFocusLost()) return;
      if (shownId) return void region.current?.querySelector<HTMLElement>('.undo-toast button')?.focus();
      // The open thread's row, unless the list is folded away (a phone): then New thread.
      const from = [
        nav?.querySelector<HTMLElement>('[aria-current="page"]'),
        nav?.querySelector<HTMLElement>('.new-thread'),
      ].find((element) => element?.checkVisibility());
      from?.focus();
      if (before && from) goingBack.current = { id: before, from };
    }
    const back = goingBack.current;
    const row = back && nav?.querySelector<HTMLElement>(`[data-thread-id="${CSS.escape(back.id)}"]`);
    if (!back || !row) return;
    goingBack.current = undefined;
    if (document.activeElement === back.from) row.focus();
  }, [shownId, threads]);
  return (
    <>
      <ThreadList
        threads={threads}
        activeId={activeId}
        {...(runningId ? { runningId } : {})}
        onNew={() => {
          onGoToChat?.();
          void actions.newThread();
        }}
        onOpen={(id, found) => {
          onGoToChat?.();
          void (found ? actions.openThreadAt(id, found) : actions.openThread(id));
        }}
        onDelete={(id) => void actions.deleteThread(id)}
        onRename={(id, title) => actions.renameThread(id, title)}
        onSearchMessages={actions.searchMessages}
        onPrepareSearch={actions.prepareSearch}
      />
      <div className="undo-toast-region" role="status" aria-live="polite" ref={region}>
        {shown && (
          <div
            className="undo-toast"
            onFocus={() => setFocusOn(shown)}
            onBlur={(event) => {
              if (!event.currentTarget.contains(event.relatedTarget)) setFocusOn(undefined);
            }}
            onPointerEnter={() => setPointerOn(shown)}
            onPointerLeave={() => setPointerOn(undefined)}
          >
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
