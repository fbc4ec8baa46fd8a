import { z } from 'zod';
import { ATTACHMENT_KINDS } from './attachment-kind';

export {
  base64Length,
  IMAGE_TYPES,
  kindOf,
  MAX_ATTACHMENTS,
  MAX_IMAGE_BASE64,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_SIDE,
  MAX_MESSAGE_ATTACHMENT_BASE64,
  MAX_PDF_PAGES,
  MAX_REQUEST_BYTES,
  MAX_TEXT_CHARS,
} from './attachment-kind';

/** How an attachment reaches the model (attachment-kind.ts). */
export const AttachmentKind = z.enum(ATTACHMENT_KINDS);
export type AttachmentKind = z.infer<typeof AttachmentKind>;

/** Where an attachment came from: the person's file, or a server's resource. */
export const AttachmentSource = z.discriminatedUnion('type', [
  z.object({ type: z.literal('file') }),
  z.object({ type: z.literal('resource'), serverId: z.string(), serverName: z.string(), uri: z.string() }),
]);
export type AttachmentSource = z.infer<typeof AttachmentSource>;

/** An attachment as a message records it; its bytes are a blob stored apart, under `id`. */
export const AttachmentRef = z.object({
  id: z.string().min(1),
  name: z.string(),
  mimeType: z.string(),
  kind: AttachmentKind,
  /** Bytes. */
  size: z.number().int().nonnegative(),
  source: AttachmentSource,
});
export type AttachmentRef = z.infer<typeof AttachmentRef>;
