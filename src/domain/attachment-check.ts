import {
  base64Length,
  MAX_ATTACHMENTS,
  MAX_IMAGE_BASE64,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_SIDE,
  MAX_MESSAGE_ATTACHMENT_BASE64,
  MAX_PDF_PAGES,
  MAX_TEXT_CHARS,
  type AttachmentKind,
} from './attachment-kind';
import { base64Decode, formatBytes } from './byte-size';
import { imageSize, isEncryptedPdf, isPdf, pdfPages } from './media-probe';

/** What one attachment is, as checked before it is added: its kind and, when it cannot be sent, why. */
export interface CheckedAttachment {
  readonly kind: AttachmentKind;
  /** Why the API would refuse it (shown at once; the attachment is not added). */
  readonly problem?: string;
  /** Pages of a PDF. */
  readonly pages?: number;
}

/** Checks one attachment's bytes against the API's limits for its kind; `label` names it in the message. */
export function checkAttachment(label: string, kind: AttachmentKind, bytes: Uint8Array): CheckedAttachment {
  const size = formatBytes(bytes.length);
  if (kind === 'image') {
    if (base64Length(bytes.length) > MAX_IMAGE_BASE64)
      return {
        kind,
        problem: `${label} is ${size}; an image can be at most ${(MAX_IMAGE_BYTES / 1024 / 1024).toFixed(2)} MB (5 MB once encoded, the API's limit).`,
      };
    const pixels = imageSize(bytes);
    if (!pixels) return { kind, problem: `${label} is not a readable PNG, JPEG, GIF or WebP image.` };
    if (pixels.width > MAX_IMAGE_SIDE || pixels.height > MAX_IMAGE_SIDE)
      return {
        kind,
        problem: `${label} is ${pixels.width}x${pixels.height} px; the API takes images up to ${MAX_IMAGE_SIDE}x${MAX_IMAGE_SIDE} px.`,
      };
    return { kind };
  }
  if (kind === 'pdf') {
    if (!isPdf(bytes)) return { kind, problem: `${label} is not a PDF file.` };
    if (isEncryptedPdf(bytes))
      return { kind, problem: `${label} is an encrypted or password-protected PDF; the API takes only standard PDFs.` };
    const pages = pdfPages(bytes);
    if (pages > MAX_PDF_PAGES)
      return { kind, pages, problem: `${label} has ${pages} pages; the API reads at most ${MAX_PDF_PAGES} pages.` };
    if (base64Length(bytes.length) > MAX_MESSAGE_ATTACHMENT_BASE64)
      return { kind, pages, problem: tooLarge(label, size) };
    return { kind, pages };
  }
  if (kind === 'text') {
    const text = decodeText(bytes);
    if (text === undefined) return { kind, problem: `${label} is not UTF-8 text.` };
    if (text.length > MAX_TEXT_CHARS)
      return {
        kind,
        problem: `${label} has ${text.length.toLocaleString('en-US')} characters; a text file can have at most ${MAX_TEXT_CHARS.toLocaleString('en-US')}.`,
      };
  }
  return { kind };
}

/** Why a message cannot carry these attachments together (count, total size), or undefined. */
export function attachmentsProblem(
  items: readonly { kind: AttachmentKind; size: number; pages?: number }[],
): string | undefined {
  if (items.length > MAX_ATTACHMENTS) return `A message can carry at most ${MAX_ATTACHMENTS} attachments.`;
  const sent = items.filter((i) => i.kind !== 'other');
  const total = sent.reduce((sum, i) => sum + base64Length(i.size), 0);
  if (total > MAX_MESSAGE_ATTACHMENT_BASE64)
    return `These attachments come to ${formatBytes((total * 3) / 4)}; one message can carry at most ${formatBytes((MAX_MESSAGE_ATTACHMENT_BASE64 * 3) / 4)} (the API takes 32 MB per request, encoded).`;
  const pages = items.reduce((sum, i) => sum + (i.pages ?? 0), 0);
  if (pages > MAX_PDF_PAGES)
    return `These PDFs have ${pages} pages together; the API reads at most ${MAX_PDF_PAGES} pages per request.`;
  return undefined;
}

function tooLarge(label: string, size: string): string {
  return `${label} is ${size}; one message can carry at most ${formatBytes((MAX_MESSAGE_ATTACHMENT_BASE64 * 3) / 4)} (the API takes 32 MB per request, encoded).`;
}

/** The bytes as UTF-8 text, or undefined when they are not. */
export function decodeText(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The UTF-8 text of base64 data, or undefined when it is not base64 or not UTF-8. */
export function base64Text(base64: string): string | undefined {
  try {
    return decodeText(base64Decode(base64));
  } catch {
    return undefined;
  }
}
