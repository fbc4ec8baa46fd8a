import type { AttachmentRef } from '../../domain/attachment';
import { formatBytes } from '../../domain/byte-size';

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

/** A message's attachments as chips (read-only). */
export function AttachmentChips({ attachments, label }: { attachments: readonly AttachmentRef[]; label: string }) {
  return (
    <ul className="attachment-chips" aria-label={label}>
      {attachments.map((a) => (
        <AttachmentChip key={a.id} attachment={a} />
      ))}
    </ul>
  );
}
