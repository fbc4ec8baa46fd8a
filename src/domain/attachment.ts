import { z } from 'zod';
import { ATTACHMENT_KINDS } from './attachment-kind';

// The kinds and limits, for callers that already import the stored shape from here (this module's own AttachmentKind,
// the schema, takes the place of the plain type there).
export * from './attachment-kind';

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

/**
 * An attachment waiting in a thread's unsent draft, as stored for a reload: what the message will record, its bytes,
 * and the note said under the chips (an image made smaller). Its bytes must be as long as the ref says.
 */
export const DraftAttachment = z
  .object({ ref: AttachmentRef, blob: z.instanceof(Blob), note: z.string().optional() })
  .refine((item) => item.blob.size === item.ref.size, {
    message: 'the stored bytes are not as long as the attachment says',
    path: ['blob'],
  });
export type DraftAttachment = z.infer<typeof DraftAttachment>;
