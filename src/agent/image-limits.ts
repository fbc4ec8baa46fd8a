import { imageLimitProblem } from '../domain/media-probe';
import type { ContentBlock } from '../domain/message';
import type { ModelMessage } from './model-port';

// The API's own limits (Images and vision, "General limits"): 100 images per request for models with a
// 200k-token context (600 for others); at most 8000x8000 px each, 2000x2000 px once a request holds more
// than 20; and 32 MB per request on standard endpoints. Ours are far below: every image is sent again with
// every later request of the thread, so they cost each turn, not once.

/** Images one tool result keeps (stored and sent); the rest are left out with a note. */
export const MAX_IMAGES_PER_RESULT = 10;
/** Base64 characters of image data one tool result keeps. */
export const MAX_IMAGE_CHARS_PER_RESULT = 2_000_000;
/** Images one model request carries, the newest first; 20 also keeps the API's full 8000 px size limit. */
export const MAX_IMAGES_PER_REQUEST = 20;
/** Base64 characters of image data one model request carries. */
export const MAX_IMAGE_CHARS_PER_REQUEST = 5_000_000;

const megabytes = (chars: number) => `${chars / 1_000_000} MB`;

/** The note in a stored result that kept only some of its images. */
export function resultImagesNote(leftOut: number, total: number): string {
  return `[${leftOut} of ${total} images left out: a tool result keeps at most ${MAX_IMAGES_PER_RESULT} images and ${megabytes(MAX_IMAGE_CHARS_PER_RESULT)} of image data.]`;
}

/** What an older image becomes in a request that has no room left for it. */
export const OLDER_IMAGE_PLACEHOLDER: Extract<ContentBlock, { type: 'text' }> = {
  type: 'text',
  text: `[An older image was left out of this request: a request carries the newest ${MAX_IMAGES_PER_REQUEST} images and ${megabytes(MAX_IMAGE_CHARS_PER_REQUEST)} of image data at most.]`,
};

type Image = Extract<ContentBlock, { type: 'image' }>;

/**
 * The request with its images within the caps: the newest kept, older ones replaced by a placeholder. The
 * messages are copied where changed, never modified (they are the thread as stored).
 */
export function limitRequestImages(messages: readonly ModelMessage[]): ModelMessage[] {
  let count = 0;
  let chars = 0;
  const keep = (image: Image) => {
    // The newest image always goes (an attached image may be up to the API's own 5 MB).
    const fits =
      count < MAX_IMAGES_PER_REQUEST &&
      (count === 0 || chars + image.source.data.length <= MAX_IMAGE_CHARS_PER_REQUEST);
    if (fits) {
      count += 1;
      chars += image.source.data.length;
    }
    return fits;
  };
  // One the API refuses for its size never goes (kept from before the checks where it enters a thread): it would
  // fail this request and every later one of the thread.
  const limitImage = (image: Image): Image | Extract<ContentBlock, { type: 'text' }> => {
    const problem = imageLimitProblem(image.source.data);
    if (problem) return { type: 'text', text: `[An image was left out of this request: ${problem}.]` };
    return keep(image) ? image : OLDER_IMAGE_PLACEHOLDER;
  };
  const limitBlock = (block: ContentBlock): ContentBlock => {
    if (block.type === 'image') return limitImage(block);
    if (block.type !== 'tool_result' || !block.content.some((c) => c.type === 'image')) return block;
    const content = [...block.content].reverse().map((c) => (c.type === 'image' ? limitImage(c) : c));
    return { ...block, content: content.reverse() };
  };
  // Newest first, so the budget goes to the latest images.
  const limited = [...messages].reverse().map((message) => ({
    ...message,
    content: [...message.content].reverse().map(limitBlock).reverse(),
  }));
  return limited.reverse();
}
