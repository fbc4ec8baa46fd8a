import { z } from 'zod';
import type { ToolCallResult, ToolContent } from './tool-result';

const Text = z.object({ type: z.literal('text'), text: z.string() });
const Media = z.object({ type: z.enum(['image', 'audio']), mimeType: z.string(), data: z.string() });
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
export const ShownContent = z.union([Text, Media, ResourceLink, Resource]);

/** A tool result as the person sees it: every content item and the structured content. */
export const ShownResult = z.object({
  content: z.array(ShownContent),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
});
export type ShownResult = z.infer<typeof ShownResult>;

/**
 * Characters of media data (base64 images, audio, blobs) and text one stored result keeps for the person; past it an
 * item is kept as a note naming its type and size. The thread is stored in IndexedDB and loaded whole.
 */
export const MAX_SHOWN_CHARS = 8_000_000;

/** The result as kept for the person: content past the storage budget becomes a note with its type and size. */
export function shownResult(result: ToolCallResult, maxChars = MAX_SHOWN_CHARS): ShownResult {
  let budget = maxChars;
  const keep = (item: ToolContent): z.infer<typeof ShownContent> => {
    const size = sizeOf(item);
    if (size <= budget) {
      budget -= size;
      return item;
    }
    const what = item.type === 'resource' ? `resource ${item.uri}` : item.type;
    const type = 'mimeType' in item && item.mimeType ? ` ${item.mimeType}` : '';
    return { type: 'text', text: `[${what}${type}, ${size} characters: too large to keep in the thread]` };
  };
  const structuredSize = result.structuredContent ? JSON.stringify(result.structuredContent).length : 0;
  const content = result.content.map(keep);
  const hasRoom = result.structuredContent !== undefined && structuredSize <= budget;
  if (result.structuredContent !== undefined && !hasRoom)
    content.push({
      type: 'text',
      text: `[structured content, ${structuredSize} characters: too large to keep in the thread]`,
    });
  return { content, ...(hasRoom ? { structuredContent: result.structuredContent } : {}) };
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
