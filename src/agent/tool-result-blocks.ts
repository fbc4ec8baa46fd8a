import type { ContentBlock } from '../domain/message';
import type { ToolCallResult, ToolContent } from '../domain/tool-result';
import type { SentToModel } from '../domain/trace';
import { base64Bytes, formatBytes } from '../domain/byte-size';
import { base64Text } from '../domain/attachment-check';
import { kindOf, MAX_IMAGE_BASE64, MAX_IMAGE_SIDE } from '../domain/attachment-kind';
import { API_IMAGE_TYPES, pixelsOverSide, sentImageType } from '../domain/media-probe';
import { MAX_IMAGE_CHARS_PER_RESULT, MAX_IMAGES_PER_RESULT, resultImagesNote } from './image-limits';

type ToolResultBlock = Extract<ContentBlock, { type: 'tool_result' }>;
type ResultContent = ToolResultBlock['content'][number];

/** A tool result as the model receives it: the block, and what it carries, for the trace. */
export interface ModelToolResult {
  readonly block: ToolResultBlock;
  readonly sent: SentToModel;
}

/**
 * A tool's result as a tool_result block the API accepts: text as text; images of the API's types within its size
 * limit and the per-result caps as image blocks; embedded text resources as text under their URI; image blobs as
 * images; audio, other blobs and resource links named in a short text (the API takes none of them); structured
 * content as JSON text when no text block carries the same JSON. Text past `capChars` is cut with a note.
 */
export function toModelToolResult(toolUseId: string, result: ToolCallResult, capChars: number): ModelToolResult {
  const content: ResultContent[] = [];
  const leftOut: string[] = [];
  let budget = capChars;
  let isTruncated = false;
  let fullChars = 0;
  let images = 0;
  let imageChars = 0;
  let imagesOverCap = 0;
  const addText = (text: string) => {
    fullChars += text.length;
    if (budget <= 0) return void (isTruncated = true);
    if (text.length > budget) isTruncated = true;
    content.push({ type: 'text', text: text.slice(0, budget) });
    budget -= Math.min(text.length, budget);
  };
  const addImage = (declared: string, data: string, what: string) => {
    const mimeType = sentImageType(declared, data);
    const bytes = base64Bytes(data);
    if (!API_IMAGE_TYPES.has(mimeType))
      return note(
        `${what} (${mimeType}, ${formatBytes(bytes)}): not sent, the model API takes only JPEG, PNG, GIF and WebP images`,
      );
    // The API measures its 5 MB on the base64 data ("image exceeds 5 MB maximum: 5649924 bytes > 5242880 bytes").
    if (data.length > MAX_IMAGE_BASE64)
      return note(
        `${what} (${mimeType}, ${formatBytes(bytes)}): not sent, ${formatBytes(data.length)} once encoded, over the API's limit of 5 MB per image`,
      );
    const pixels = pixelsOverSide(data);
    if (pixels)
      return note(
        `${what} (${mimeType}, ${pixels.width}x${pixels.height} px): not sent, the API takes images up to ${MAX_IMAGE_SIDE}x${MAX_IMAGE_SIDE} px`,
      );
    if (images >= MAX_IMAGES_PER_RESULT || imageChars + data.length > MAX_IMAGE_CHARS_PER_RESULT) {
      imagesOverCap += 1;
      return;
    }
    images += 1;
    imageChars += data.length;
    content.push({ type: 'image', source: { type: 'base64', media_type: mimeType, data } });
  };
  const note = (text: string) => {
    leftOut.push(text);
    addText(`[${text}]`);
  };
  for (const item of result.content) convert(item);
  function convert(item: ToolContent): void {
    switch (item.type) {
      case 'text':
        return addText(item.text);
      case 'image':
        return addImage(item.mimeType, item.data, 'image');
      case 'audio':
        return note(
          `audio (${item.mimeType}, ${formatBytes(base64Bytes(item.data))}): shown to the person, not sent; the model API takes no audio`,
        );
      case 'resource_link':
        return addText(
          `[resource link] ${[item.name, item.uri, item.mimeType && `(${item.mimeType})`, item.description && `: ${item.description}`].filter(Boolean).join(' ')}`,
        );
      case 'resource': {
        const type = item.mimeType ? ` (${item.mimeType})` : '';
        if (item.text !== undefined) return addText(`[resource ${item.uri}${type}]\n${item.text}`);
        if (item.blob !== undefined && item.mimeType?.startsWith('image/'))
          return addImage(item.mimeType, item.blob, `image resource ${item.uri}`);
        // Text sent as a blob (base64) is text: the model reads it as it reads an embedded text resource.
        const blobText =
          item.blob !== undefined && kindOf(item.uri, item.mimeType ?? '') === 'text'
            ? base64Text(item.blob)
            : undefined;
        if (blobText !== undefined) return addText(`[resource ${item.uri}${type}]\n${blobText}`);
        if (item.blob !== undefined)
          return note(
            `resource ${item.uri} (${item.mimeType ?? 'binary'}, ${formatBytes(base64Bytes(item.blob))}): binary content shown to the person, not sent`,
          );
        return addText(`[resource ${item.uri}${type}]`);
      }
    }
  }
  const structured = result.structuredContent;
  if (structured && !carriesJson(result.content, structured)) addText(JSON.stringify(structured));
  // What the person is told was sent: the result's own text, without the notes this function adds after it.
  const textChars = content.reduce((sum, c) => sum + (c.type === 'text' ? c.text.length : 0), 0);
  if (imagesOverCap > 0) {
    const text = resultImagesNote(imagesOverCap, images + imagesOverCap);
    leftOut.push(text.slice(1, -1));
    content.push({ type: 'text', text });
  }
  if (isTruncated) content.push({ type: 'text', text: `[Output truncated to ${capChars} characters.]` });
  if (content.length === 0) content.push({ type: 'text', text: '(no output)' });
  const block: ToolResultBlock = {
    type: 'tool_result',
    tool_use_id: toolUseId,
    content,
    ...(result.isError ? { is_error: true } : {}),
  };
  return {
    block,
    sent: {
      textChars,
      capChars,
      images,
      imageBytes: Math.floor((imageChars * 3) / 4),
      isTruncated,
      ...(isTruncated ? { fullChars } : {}),
      leftOut,
    },
  };
}

/** The image data of an item the model would get as an image (API type, within the per-image limit), if any. */
function sendableImage(item: ToolContent): string | undefined {
  const image =
    item.type === 'image'
      ? { mimeType: item.mimeType, data: item.data }
      : item.type === 'resource' && item.blob !== undefined && item.mimeType?.startsWith('image/')
        ? { mimeType: item.mimeType, data: item.blob }
        : undefined;
  if (!image || !API_IMAGE_TYPES.has(image.mimeType) || image.data.length > MAX_IMAGE_BASE64) return undefined;
  if (pixelsOverSide(image.data)) return undefined;
  return image.data;
}

/**
 * The result as kept in the thread for the person: the same images the model gets (the first within the per-result
 * caps), the rest left out with the note the model gets, so a result never stores more images than it sends.
 */
export function withinResultImageCaps(result: ToolCallResult): ToolCallResult {
  let images = 0;
  let imageChars = 0;
  let leftOut = 0;
  const content = result.content.filter((item) => {
    const data = sendableImage(item);
    if (data === undefined) return true;
    if (images >= MAX_IMAGES_PER_RESULT || imageChars + data.length > MAX_IMAGE_CHARS_PER_RESULT) {
      leftOut += 1;
      return false;
    }
    images += 1;
    imageChars += data.length;
    return true;
  });
  if (leftOut === 0) return result;
  return { ...result, content: [...content, { type: 'text', text: resultImagesNote(leftOut, images + leftOut) }] };
}

/** True when a text block of the result is the structured content as JSON (the spec's backwards-compatible form). */
function carriesJson(content: readonly ToolContent[], structured: Record<string, unknown>): boolean {
  const wanted = canonicalJson(structured);
  return content.some((item) => {
    if (item.type !== 'text') return false;
    try {
      return canonicalJson(JSON.parse(item.text)) === wanted;
    } catch {
      return false;
    }
  });
}

/** JSON with object keys sorted, so equal values compare equal whatever their key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
