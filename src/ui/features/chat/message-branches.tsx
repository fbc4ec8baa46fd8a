import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { AttachmentRef } from '../../../domain/attachment';
import { AttachmentChip } from '../../components/attachment-chip';
import { MAX_MESSAGE_CHARS } from '../../../stores/draft';
import { isFocusLost } from '../../hooks/focus-lost';

/** What the thread offers on its messages for branches (issue #22): versions, edit and regenerate. */
export interface BranchControls {
  /** For each shown message that has other versions: every version's id, oldest first. */
  readonly versions: ReadonlyMap<string, readonly string[]>;
  readonly onShowVersion: (messageId: string) => void;
  /** Sends the edited text as a new version of the person's message, with the attachments of it kept (their ids). */
  readonly onEdit: (messageId: string, text: string, keptAttachmentIds: readonly string[]) => void;
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
  const previous = at > 0 ? versions[at - 1] : undefined;
  const next = at >= 0 ? versions[at + 1] : undefined;
  const previousButton = useRef<HTMLButtonElement>(null);
  const nextButton = useRef<HTMLButtonElement>(null);
  const pressed = useRef<'previous' | 'next' | undefined>(undefined);
  // At the first or last version the arrow just pressed is disabled, which drops the keyboard focus to the page: it
  // goes to the other arrow instead.
  useEffect(() => {
    const [from, to] =
      pressed.current === 'previous' && previous === undefined
        ? [previousButton, nextButton]
        : pressed.current === 'next' && next === undefined
          ? [nextButton, previousButton]
          : [];
    pressed.current = undefined;
    // Unless the person has moved on meanwhile (the browser may still name the disabled arrow as focused).
    if (to && (isFocusLost() || document.activeElement === from?.current)) to.current?.focus();
  }, [previous, next]);
  if (at < 0 || versions.length < 2) return null;
  return (
    <div className="version-switcher" role="group" aria-label="Versions">
      <button
        type="button"
        className="secondary small"
        aria-label="Previous version"
        ref={previousButton}
        disabled={isDisabled || previous === undefined}
        onClick={() => {
          if (previous === undefined) return;
          pressed.current = 'previous';
          onShow(previous);
        }}
      >
        ‹
      </button>
      <span className="version-count" aria-hidden="true">
        {at + 1} / {versions.length}
      </span>
      {/* Said again when an arrow moves to another version (the focus stays on the switcher). */}
      <span className="visually-hidden" aria-live="polite">
        {at + 1} of {versions.length}
      </span>
      <button
        type="button"
        className="secondary small"
        aria-label="Next version"
        ref={nextButton}
        disabled={isDisabled || next === undefined}
        onClick={() => {
          if (next === undefined) return;
          pressed.current = 'next';
          onShow(next);
        }}
      >
        ›
      </button>
    </div>
  );
}

/**
 * The person's message as an editable box in its place, its attachments above it (each can be removed): "Send edit"
 * makes a new version with a new answer.
 */
export function MessageEditor({
  initialText,
  attachments = [],
  isDisabled,
  onCancel,
  onSend,
}: {
  initialText: string;
  attachments?: readonly AttachmentRef[];
  isDisabled: boolean;
  onCancel: () => void;
  onSend: (text: string, keptAttachmentIds: readonly string[]) => void;
}) {
  const [text, setText] = useState(initialText);
  const [kept, setKept] = useState(attachments);
  const box = useRef<HTMLTextAreaElement>(null);
  const canSend = !isDisabled && text.trim() !== '';
  const send = () => {
    if (canSend)
      onSend(
        text,
        kept.map((a) => a.id),
      );
  };
  const remove = (id: string) => {
    setKept(kept.filter((a) => a.id !== id));
    box.current?.focus(); // The chip's button goes with it: the caret goes back to the text.
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
      {kept.length > 0 && (
        <ul className="attachment-chips" aria-label="Attachments sent with the edit">
          {kept.map((a) => (
            <AttachmentChip key={a.id} attachment={a} onRemove={() => remove(a.id)} />
          ))}
        </ul>
      )}
      <textarea
        ref={box}
        aria-label="Edit your message"
        value={text}
        maxLength={MAX_MESSAGE_CHARS}
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
