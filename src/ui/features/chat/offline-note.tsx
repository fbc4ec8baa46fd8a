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
