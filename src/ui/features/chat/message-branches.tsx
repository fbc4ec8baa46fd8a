import { useState, type KeyboardEvent } from 'react';

/** The longest message the box takes (as the composer). */
const MAX_EDIT_CHARS = 100_000;

/** What the thread offers on its messages for branches (issue #22): versions, edit and regenerate. */
export interface BranchControls {
  /** For each shown message that has other versions: every version's id, oldest first. */
  readonly versions: ReadonlyMap<string, readonly string[]>;
  readonly onShowVersion: (messageId: string) => void;
  /** Sends the edited text as a new version of the person's message. */
  readonly onEdit: (messageId: string, text: string) => void;
  /** A new answer to the person's message this answer replies to. */
  readonly onRegenerate: (answerId: string) => void;
}

/** "‹ 2 / 3 ›": moves between the versions of a message; its branch's later messages come with it. */
export function VersionSwitcher({
  messageId,
  versions,
  isDisabled,
  onShow,
}: {
  messageId: string;
  versions: readonly string[];
  isDisabled: boolean;
  onShow: (messageId: string) => void;
}) {
  const at = versions.indexOf(messageId);
  if (at < 0 || versions.length < 2) return null;
  const previous = versions[at - 1];
  const next = versions[at + 1];
  return (
    <div className="version-switcher" role="group" aria-label="Versions">
      <button
        type="button"
        className="secondary small"
        aria-label="Previous version"
        disabled={isDisabled || previous === undefined}
        onClick={() => previous !== undefined && onShow(previous)}
      >
        ‹
      </button>
      <span className="version-count" aria-hidden="true">
        {at + 1} / {versions.length}
      </span>
      <span className="visually-hidden">
        {at + 1} of {versions.length}
      </span>
      <button
        type="button"
        className="secondary small"
        aria-label="Next version"
        disabled={isDisabled || next === undefined}
        onClick={() => next !== undefined && onShow(next)}
      >
        ›
      </button>
    </div>
  );
}

/** The person's message as an editable box in its place: "Send edit" makes a new version with a new answer. */
export function MessageEditor({
  initialText,
  isDisabled,
  onCancel,
  onSend,
}: {
  initialText: string;
  isDisabled: boolean;
  onCancel: () => void;
  onSend: (text: string) => void;
}) {
  const [text, setText] = useState(initialText);
  const canSend = !isDisabled && text.trim() !== '';
  const send = () => {
    if (canSend) onSend(text);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') onCancel();
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  return (
    <form
      className="message-edit"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        aria-label="Edit your message"
        value={text}
        maxLength={MAX_EDIT_CHARS}
        rows={Math.min(10, Math.max(2, text.split('\n').length))}
        // The box opens on the person's click of Edit: the caret goes where they will type.
        autoFocus
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="message-actions">
        <button type="button" className="secondary small" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="small" disabled={!canSend}>
          Send edit
        </button>
      </div>
    </form>
  );
}
