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
 * tab, so Send waits, and Stop and that answer's approvals are in that thread (not here, out of sight of the answer).
 */
export function BusyElsewhereNote({
  title,
  onOpen,
  isAwaitingApproval,
  isAwaitingAnswer = false,
}: {
  /** The thread being answered; none when it has left the list (deleted while its turn ends). */
  title?: string;
  onOpen?: () => void;
  isAwaitingApproval: boolean;
  /** A server asks the person something during that answer (elicitation). */
  isAwaitingAnswer?: boolean;
}) {
  return (
    <p className="offline-note" role="status">
      <strong>
        {title === undefined
          ? 'Claude is finishing an answer in another thread.'
          : `Claude is answering in “${title}”.`}
      </strong>{' '}
      {isAwaitingApproval ? 'It waits for your approval there. ' : ''}
      {isAwaitingAnswer ? 'A server asks you something there. ' : ''}One answer is written at a time: Send waits until
      it ends (what you type stays in the box).{' '}
      {title !== undefined && onOpen && (
        <button type="button" className="secondary" onClick={onOpen}>
          Open “{title}”
        </button>
      )}
    </p>
  );
}

/**
 * Above the message box of a thread whose answer another tab is writing: Send, Retry, Edit and Regenerate wait here
 * until it ends (each would start a second turn behind it); its approvals are answered in that tab.
 */
export function OtherTabNote({ isAwaitingApproval }: { isAwaitingApproval: boolean }) {
  return (
    <p className="offline-note" role="status">
      <strong>Claude is answering in this thread in another tab.</strong>{' '}
      {isAwaitingApproval
        ? 'It is waiting for your approval in that tab: allow or deny the call there (Stop is there too). '
        : 'Its approvals and Stop are there. '}
      Send waits until that answer ends (what you type stays in the box); it then shows here.
    </p>
  );
}
