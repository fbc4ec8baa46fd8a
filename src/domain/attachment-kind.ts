// What an attachment is and the limits it is checked against, without the stored shape's schema (attachment.ts), so
// that the composer's first screen does not load zod.
// The Messages API's limits for what a message carries, checked before sending:
// https://platform.claude.com/docs/en/build-with-claude/vision ("General limits", FAQ): JPEG, PNG, GIF and WebP; at most
// 5 MB per image (its base64 data) and 8000x8000 px. https://platform.claude.com/docs/en/build-with-claude/pdf-support:
// a standard PDF (no passwords or encryption), at most 100 pages per request for 200k-context models, and 32 MB per
// request (https://platform.claude.com/docs/en/api/overview#request-size-limits).

/** How an attachment reaches the model: an image block, a document block, a text block, or only its name. */
export const ATTACHMENT_KINDS = ['image', 'pdf', 'text', 'other'] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** The API's limit on one image's base64 data (5 MB). */
export const MAX_IMAGE_BASE64 = 5 * 1024 * 1024;
/** The largest image file that stays within 5 MB once base64-encoded. */
export const MAX_IMAGE_BYTES = Math.floor((MAX_IMAGE_BASE64 * 3) / 4);
/** The API refuses an image larger than this on either side. */
export const MAX_IMAGE_SIDE = 8000;
/** The API's page limit for the PDFs of one request (200k-context models). */
export const MAX_PDF_PAGES = 100;
/** The API's request size limit (32 MB). */
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;
/** Base64 bytes of attachments one message may carry: the request limit less room for the rest of the thread. */
export const MAX_MESSAGE_ATTACHMENT_BASE64 = 24 * 1024 * 1024;
/** Characters of one text file sent as text (about 100k tokens, half a 200k context window). */
export const MAX_TEXT_CHARS = 400_000;
/** Attachments one message carries at most (20 images also keep the API's full 8000 px size limit). */
export const MAX_ATTACHMENTS = 20;

const TEXT_EXTENSIONS =
  /\.(txt|md|markdown|csv|tsv|json|jsonl|xml|yaml|yml|toml|ini|log|html?|css|js|mjs|cjs|ts|tsx|jsx|py|rb|go|rs|java|kt|c|h|cc|cpp|hpp|cs|sh|sql|svg|tex)$/i;

/** How a file of this name and type is sent. */
export function kindOf(name: string, mimeType: string): AttachmentKind {
  const type = mimeType.toLowerCase().split(';')[0]!.trim();
  if ((IMAGE_TYPES as readonly string[]).includes(type)) return 'image';
  if (type === 'application/pdf' || (!type && /\.pdf$/i.test(name))) return 'pdf';
  if (type.startsWith('text/') || /[+/](json|xml|yaml|javascript)$/.test(type) || TEXT_EXTENSIONS.test(name))
    return 'text';
  return 'other';
}

/** Base64 characters of `bytes` bytes. */
export const base64Length = (bytes: number): number => Math.ceil(bytes / 3) * 4;
