import { z } from 'zod';
import type { ToolCallResult, ToolContent } from './tool-result';

const Text = z.object({ type: z.literal('text'), text: z.string() });
const Image = z.object({ type: z.literal('image'), mimeType: z.string(), data: z.string() });
const Audio = z.object({ type: z.literal('audio'), mimeType: z.string(), data: z.string() });
const ResourceLink = z.object({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string().optional(),
  mimeType: z.string().optional(),
  description: z.string().optional(),
});
const Resource = z.object({
  type: z.literal('resource'),
  uri: z.string(),
  mimeType: z.string().optional(),
  text: z.string().optional(),
  blob: z.string().optional(),
});

/** One content item of a tool result as stored for the person to see (MCP's content types, normalized). */
export const ShownContent = z.discriminatedUnion('type', [Text, Image, Audio, ResourceLink, Resource]);

/** A tool result as the person sees it: every content item and the structured content. */
export const ShownResult = z.object({
  content: z.array(ShownContent),
  /** Any JSON the server sent (z.unknown keeps it readable by the storage guard, see schema-guard.ts). */
  structuredContent: z.unknown().optional(),
});
export type ShownResult = z.infer<typeof ShownResult>;

/**
 * Characters of media data (base64 images, audio, blobs) and structured content one stored result keeps for the
 * person; past it an item is kept as a note naming its type and size. The thread is stored in IndexedDB and loaded
 * whole, so a result must not bring megabytes into it.
 */
export const MAX_SHOWN_MEDIA_CHARS = 4_000_000;

/**
 * The result as kept for the person: text (and embedded resource text) within `textCap` characters in all, cut
 * with the same note the model gets; media and structured content within `mediaCap`, past it a note with type
 * and size.
 */
export function shownResult(result: ToolCallResult, textCap: number, mediaCap = MAX_SHOWN_MEDIA_CHARS): ShownResult {
  let text = textCap;
  let media = mediaCap;
  let isCut = false;
  const cutText = (value: string): string => {
    if (value.length > text) isCut = true;
    const kept = value.slice(0, Math.max(0, text));
    text -= kept.length;
    return kept;
  };
  const note = (what: string, size: number): z.infer<typeof ShownContent> => ({
    type: 'text',
    text: `[${what}, ${size} characters: too large to keep in the thread]`,
  });
  const content: z.infer<typeof ShownContent>[] = [];
  for (const item of result.content) {
    if (item.type === 'text') {
      if (text > 0) content.push({ type: 'text', text: cutText(item.text) });
      else isCut = true;
      continue;
    }
    if (item.type === 'resource' && item.text !== undefined) {
      content.push({ ...item, text: cutText(item.text) });
      continue;
    }
    const size = sizeOf(item);
    if (size <= media) {
      media -= size;
      content.push(item);
    } else {
      const what = item.type === 'resource' ? `resource ${item.uri}` : item.type;
      content.push(note(`${what}${'mimeType' in item && item.mimeType ? ` ${item.mimeType}` : ''}`, size));
    }
  }
  if (isCut) content.push({ type: 'text', text: `[Output truncated to ${textCap} characters.]` });
  const structured = result.structuredContent;
  const structuredSize = structured ? JSON.stringify(structured).length : 0;
  const hasRoom = structured !== undefined && structuredSize <= media;
  if (structured !== undefined && !hasRoom) content.push(note('structured content', structuredSize));
  return { content, ...(hasRoom ? { structuredContent: structured } : {}) };
}

function sizeOf(item: ToolContent): number {
  switch (item.type) {
    case 'text':
      return item.text.length;
    case 'image':
    case 'audio':
      return item.data.length;
    case 'resource':
      return (item.text?.length ?? 0) + (item.blob?.length ?? 0);
    case 'resource_link':
      return item.uri.length;
  }
}

/** A resource's contents as read (`resources/read`), or why it could not be read. */
export type ResourceReading =
  | { readonly ok: true; readonly contents: readonly Extract<ToolContent, { type: 'resource' }>[] }
  | { readonly ok: false; readonly message: string };
