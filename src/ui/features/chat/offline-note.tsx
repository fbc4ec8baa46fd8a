import './offline-note.css';

/** Above the message box while the browser has no connection: what still works, and why sending waits. */
export function OfflineNote() {
  return (
    <p className="offline-note" role="status">
      <strong>No connection.</strong> Your threads are here to read; sending waits until you are back online (what you
      type stays in the box).
    </p>
  );
}

/**
 * Above the message box of a thread while another thread's answer is being written: one answer runs at a time in a
 * tab, so Send waits, and Stop is in that thread (not here, where it would end an answer out of sight).
 */
export function BusyElsewhereNote({ title, onOpen }: { title: string; onOpen: () => void }) {
  return (
    <p className="offline-note" role="status">
      <strong>Claude is answering in “{title}”.</strong> One answer is written at a time: Send waits until it ends (what
      you type stays in the box).{' '}
      <button type="button" className="secondary" onClick={onOpen}>
        Open “{title}”
      </button>
    </p>
  );
}
