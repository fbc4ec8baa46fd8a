import {
  useEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import {
  addFiles,
  dismissAttachmentErrors,
  removeAttachment,
  type AttachmentDraft,
} from '../../../stores/attachment-draft';
import { wasTap } from '../../hooks/last-input';
import { useStore } from '../../hooks/use-store';
import { AttachmentChip } from '../../components/attachment-chip';
import './attachments.css';

type Draft = { readonly store: AttachmentDraft; readonly newId: () => string };

const hasFiles = (types: readonly string[]) => types.includes('Files');
/** No image being made smaller (one array, so the store's snapshot stays the same). */
const NONE: readonly string[] = [];

/**
 * Around the composer: files dropped on it or pasted into it become attachments (a paste of text stays text), and the
 * attachments show as chips with name and size above the box, with why any were refused.
 */
export function AttachmentZone({ draft, children }: { draft: Draft; children: ReactNode }) {
  const [isOver, setIsOver] = useState(false);
  const zone = useRef<HTMLDivElement>(null);
  const onDragOver = (event: DragEvent) => {
    if (!hasFiles([...event.dataTransfer.types])) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setIsOver(true);
  };
  const onDrop = (event: DragEvent) => {
    setIsOver(false);
    if (event.dataTransfer.files.length === 0) return;
    event.preventDefault();
    void addFiles(draft, [...event.dataTransfer.files]);
  };
  useDropOnChat(draft);
  const onPaste = (event: ClipboardEvent) => {
    if (event.clipboardData.files.length === 0) return;
    event.preventDefault(); // Files only: a paste of text goes into the box as always.
    void addFiles(draft, [...event.clipboardData.files]);
  };
  return (
    <div
      ref={zone}
      className={isOver ? 'attachment-zone is-over' : 'attachment-zone'}
      onDragOver={onDragOver}
      onDragLeave={() => setIsOver(false)}
      onDrop={onDrop}
      onPaste={onPaste}
    >
      <AttachmentTray draft={draft.store} zone={zone} />
      {children}
    </div>
  );
}

/** Where a file dropped outside the composer still becomes an attachment: the chat (the messages, the thread's header). */
const CHAT_AREA = '.chat, .composer-dock';

/**
 * A file dropped anywhere on the page never replaces the app (a browser opens a file dropped where nothing takes it):
 * dropped on the chat, it is attached like one dropped on the composer; elsewhere it is ignored. A file input takes its
 * own drops.
 */
function useDropOnChat(draft: Draft): void {
  useEffect(() => {
    const isFileInput = (target: EventTarget | null) => target instanceof HTMLInputElement && target.type === 'file';
    const takes = (event: globalThis.DragEvent) =>
      event.target instanceof Element && event.target.closest(CHAT_AREA) !== null;
    const onDragOver = (event: globalThis.DragEvent) => {
      // Taken already by a drop zone of its own (the composer's): its 'copy' stands.
      if (event.defaultPrevented || !event.dataTransfer || !hasFiles([...event.dataTransfer.types])) return;
      if (isFileInput(event.target)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = takes(event) ? 'copy' : 'none';
    };
    const onDrop = (event: globalThis.DragEvent) => {
      if (event.defaultPrevented || !event.dataTransfer || isFileInput(event.target)) return; // The composer took it.
      if (event.dataTransfer.files.length === 0) return;
      event.preventDefault();
      if (takes(event)) void addFiles(draft, [...event.dataTransfer.files]);
    };
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
    };
  }, [draft]);
}

/** The attachments of the message being written, as chips, and why the last ones offered were refused. */
export function AttachmentTray({ draft, zone }: { draft: AttachmentDraft; zone?: RefObject<HTMLDivElement | null> }) {
  const items = useStore(draft, (s) => s.items);
  // A removed chip's button goes with it: focus goes to the chip now in its place (or the one before), else to the
  // message box in the zone. Not after a tap: focusing the box would raise a phone's keyboard.
  const removedAt = useRef<number>(undefined);
  useEffect(() => {
    const at = removedAt.current;
    if (at === undefined) return;
    removedAt.current = undefined;
    const buttons = zone?.current?.querySelectorAll<HTMLButtonElement>('.attachment-tray .attachment-remove') ?? [];
    (buttons[Math.min(at, buttons.length - 1)] ?? zone?.current?.querySelector('textarea'))?.focus();
  }, [items, zone]);
  const errors = useStore(draft, (s) => s.errors);
  const shrinking = useStore(draft, (s) => s.shrinking ?? NONE);
  if (items.length === 0 && errors.length === 0 && shrinking.length === 0) return null;
  return (
    <div className="attachment-tray">
      {shrinking.length > 0 && (
        <p className="attachment-working muted" role="status">
          Making {shrinking.join(', ')} smaller to fit the API's limits… Send waits for it.
        </p>
      )}
      {errors.length > 0 && (
        <div className="attachment-errors field-error" role="alert">
          {errors.map((error, i) => (
            <p key={i}>{error}</p>
          ))}
          <button type="button" className="secondary small" onClick={() => dismissAttachmentErrors(draft)}>
            Dismiss
          </button>
        </div>
      )}
      {items.length > 0 && (
        <ul className="attachment-chips" aria-label="Attachments to send">
          {items.map((item, index) => (
            <AttachmentChip
              key={item.ref.id}
              attachment={item.ref}
              onRemove={() => {
                if (!wasTap()) removedAt.current = index;
                removeAttachment(draft, item.ref.id);
              }}
            />
          ))}
        </ul>
      )}
      {items.some((item) => item.note) && (
        <div className="attachment-notes muted" role="status">
          {items.flatMap((item) => (item.note ? [<p key={item.ref.id}>{item.note}</p>] : []))}
        </div>
      )}
    </div>
  );
}

/** The "Attach files" button: opens the file picker (several files at once). */
export function AttachButton({ draft }: { draft: Draft }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className="secondary attach-button"
        aria-label="Attach files"
        title="Attach files"
        onClick={() => input.current?.click()}
      >
        {/* "+" on a phone, where the box needs the width; its name stays "Attach files". */}
        <span className="attach-long">Attach</span>
        <span className="attach-short" aria-hidden="true">
          +
        </span>
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = ''; // The same file can be picked again after it was removed.
          if (files.length > 0) void addFiles(draft, files);
        }}
      />
    </>
  );
}
