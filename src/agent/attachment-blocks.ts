import { MAX_PDF_PAGES, type AttachmentRef } from '../domain/attachment';
import { decodeText } from '../domain/attachment-check';
import { formatBytes } from '../domain/byte-size';
import { imageTypeOf, pdfPages } from '../domain/media-probe';
import type { ContentBlock, Message } from '../domain/message';

/** Reads an attachment's stored bytes; undefined when they are gone. */
export type LoadAttachment = (id: string) => Promise<Uint8Array | undefined>;

/** Base64 characters of PDFs one request carries (the newest first); the API takes 32 MB per request in all. */
export const MAX_DOCUMENT_CHARS_PER_REQUEST = 24 * 1024 * 1024;

type Text = Extract<ContentBlock, { type: 'text' }>;
const text = (value: string): Text => ({ type: 'text', text: value });

/** How a person or the model reads where an attachment came from. */
export function attachmentLabel(ref: AttachmentRef): string {
  return ref.source.type === 'resource'
    ? `resource ${ref.source.uri} of ${ref.source.serverName} (${ref.mimeType}, ${formatBytes(ref.size)})`
    : `file ${ref.name} (${ref.mimeType || 'unknown type'}, ${formatBytes(ref.size)})`;
}

/** The bytes as base64 (chunked: a spread of a large array would overflow the stack). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** One attachment as the API's content blocks: image, document (PDF), text, or only its name for other types. */
export function attachmentBlocks(ref: AttachmentRef, bytes: Uint8Array | undefined): ContentBlock[] {
  const label = attachmentLabel(ref);
  if (!bytes) return [text(`[Attached ${label}: its contents are no longer stored.]`)];
  switch (ref.kind) {
    case 'image':
      return [
        text(`Attached ${label}:`),
        // The type its bytes show: a PNG saved as .jpg is a PNG to the API, which refuses a mismatch.
        {
          type: 'image',
          source: { type: 'base64', media_type: imageTypeOf(bytes) ?? ref.mimeType, data: toBase64(bytes) },
        },
      ];
    case 'pdf':
      return [
        {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: toBase64(bytes) },
          title: ref.source.type === 'resource' ? ref.source.uri : ref.name,
        },
      ];
    case 'text':
      return [text(`Attached ${label}:\n\n${decodeText(bytes) ?? new TextDecoder().decode(bytes)}`)];
    case 'other':
      return [text(`[Attached ${label}: named only; its contents were not sent (the API does not take this type).]`)];
  }
}

/** What an older PDF becomes in a request with no room left for it. */
export function olderDocumentNote(ref: AttachmentRef): Text {
  return text(
    `[The PDF ${ref.name} attached earlier was left out of this request: a request carries at most ${MAX_PDF_PAGES} PDF pages and 24 MB of PDF data, the newest first.]`,
  );
}

/**
 * The thread with each message's attachments turned into content blocks before its text (images and documents
 * work best before the question). Newest first, PDFs beyond the request's page and size budget become a note.
 * Messages are copied, never changed.
 */
export async function withAttachmentBlocks(messages: readonly Message[], load: LoadAttachment): Promise<Message[]> {
  let pages = 0;
  let chars = 0;
  const out: Message[] = [];
  for (const message of [...messages].reverse()) {
    if (!message.attachments?.length) {
      out.push(message);
      continue;
    }
    const blocks: ContentBlock[] = [];
    for (const ref of message.attachments) {
      const bytes = await load(ref.id);
      if (ref.kind === 'pdf' && bytes) {
        const docPages = pdfPages(bytes);
        const docChars = Math.ceil(bytes.length / 3) * 4;
        if (pages + docPages > MAX_PDF_PAGES || chars + docChars > MAX_DOCUMENT_CHARS_PER_REQUEST) {
          blocks.push(olderDocumentNote(ref));
          continue;
        }
        pages += docPages;
        chars += docChars;
      }
      blocks.push(...attachmentBlocks(ref, bytes));
    }
    out.push({ ...message, blocks: [...blocks, ...message.blocks] });
  }
  return out.reverse();
}
