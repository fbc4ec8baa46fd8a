import { createContext, useContext, useEffect, useState } from 'react';
import type { AttachmentRef } from '../../domain/attachment';
import { formatBytes } from '../../domain/byte-size';
import { saveBlob } from './save-file';

/** Reads the stored bytes of a sent attachment (undefined: no longer stored); provided by the chat. */
export type ReadAttachment = (id: string) => Promise<Blob | undefined>;
export const ReadAttachmentContext = createContext<ReadAttachment | undefined>(undefined);

const KIND_LABEL: Record<AttachmentRef['kind'], string> = {
  image: 'image',
  pdf: 'PDF',
  text: 'text',
  other: 'named only, not sent',
};

/** One attachment as a chip: its name, kind and size, where it came from, and (in the composer) a Remove button. */
export function AttachmentChip({ attachment, onRemove }: { attachment: AttachmentRef; onRemove?: () => void }) {
  const { source } = attachment;
  const origin = source.type === 'resource' ? `${source.serverName} · ${source.uri}` : undefined;
  return (
    <li className="attachment-chip" data-kind={attachment.kind} title={origin ?? attachment.name}>
      <span className="attachment-name">{attachment.name}</span>
      <span className="attachment-meta muted">
        {KIND_LABEL[attachment.kind]} · {formatBytes(attachment.size)}
        {origin ? ` · ${source.type === 'resource' ? source.serverName : ''}` : ''}
      </span>
      {onRemove && (
        <button type="button" className="attachment-remove" aria-label={`Remove ${attachment.name}`} onClick={onRemove}>
          ×
        </button>
      )}
    </li>
  );
}

/** A sent message's attachments: images with a thumbnail, each a button that downloads its stored bytes. */
export function AttachmentChips({ attachments, label }: { attachments: readonly AttachmentRef[]; label: string }) {
  return (
    <ul className="attachment-chips is-sent" aria-label={label}>
      {attachments.map((a) => (
        <SentAttachment key={a.id} attachment={a} />
      ))}
    </ul>
  );
}

function SentAttachment({ attachment }: { attachment: AttachmentRef }) {
  const read = useContext(ReadAttachmentContext);
  const thumbnail = useThumbnail(attachment, read);
  const [problem, setProblem] = useState<string>();
  const download = async () => {
    const blob = await read?.(attachment.id).catch(() => undefined);
    if (!blob) return setProblem(`${attachment.name} is no longer stored in this browser.`);
    setProblem(undefined);
    saveBlob(attachment.name, blob);
  };
  return (
    <li className="attachment-chip" data-kind={attachment.kind}>
      {thumbnail && <img className="attachment-thumb" src={thumbnail} alt="" />}
      <button
        type="button"
        className="attachment-open"
        aria-label={`Download ${attachment.name}`}
        title={`Download ${attachment.name}`}
        onClick={() => void download()}
      >
        <span className="attachment-name">{attachment.name}</span>
      </button>
      <span className="attachment-meta muted">
        {KIND_LABEL[attachment.kind]} · {formatBytes(attachment.size)}
        {attachment.source.type === 'resource' ? ` · ${attachment.source.serverName}` : ''}
      </span>
      {problem && (
        <span className="field-error" role="alert">
          {problem}
        </span>
      )}
    </li>
  );
}

/** An object URL of an image attachment's stored bytes while the chip is shown (none for other kinds). */
function useThumbnail(attachment: AttachmentRef, read: ReadAttachment | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (attachment.kind !== 'image' || !read) return;
    let made: string | undefined;
    let gone = false;
    read(attachment.id).then(
      (blob) => {
        if (gone || !blob) return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      },
      () => undefined, // No thumbnail; the chip still names it, and Download says it is gone.
    );
    return () => {
      gone = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [attachment.id, attachment.kind, read]);
  return url;
}
