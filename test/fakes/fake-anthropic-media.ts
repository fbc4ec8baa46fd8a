// The documented limits of images and PDFs in a Messages API request, as the real API enforces them. Each rule cites
// its doc page; the messages follow the API's style (the path of the offending block first).
//   https://platform.claude.com/docs/en/build-with-claude/vision ("General limits", FAQ): JPEG, PNG, GIF, WebP (the
//     data must be of the media_type given: the API answers "The image was specified using the image/jpeg media type,
//     but the image appears to be a image/png image", as seen in the wild: vybestack/llxprt-code#2130); 5 MB
//     per image; 8000x8000 px, 2000x2000 px once a request holds more than 20 images; 100 images per request
//     (200k-context models).
//   https://platform.claude.com/docs/en/build-with-claude/pdf-support ("PDF requirements"): standard PDFs (no
//     passwords or encryption), at most 100 pages per request (200k-context models).
//   https://platform.claude.com/docs/en/api/overview#request-size-limits: 32 MB per request (a 413 request_too_large).

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The request size limit of the Messages API, in bytes. */
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;
export const MAX_IMAGE_BASE64_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const MAX_IMAGES = 100;
const MAX_PDF_PAGES = 100;

interface Found {
  path: string;
  block: Record<string, unknown>;
}

/** Image and document blocks of the messages, also inside tool results, with their paths. */
function mediaBlocks(messages: unknown[]): Found[] {
  const found: Found[] = [];
  messages.forEach((message, m) => {
    if (!isRecord(message) || !Array.isArray(message.content)) return;
    message.content.forEach((block: unknown, b) => {
      if (!isRecord(block)) return;
      const path = `messages.${m}.content.${b}`;
      if (block.type === 'image' || block.type === 'document') found.push({ path, block });
      if (block.type === 'tool_result' && Array.isArray(block.content))
        block.content.forEach((inner: unknown, c) => {
          if (isRecord(inner) && (inner.type === 'image' || inner.type === 'document'))
            // The real API names a block inside a tool result this way (vybestack/llxprt-code#2130).
            found.push({ path: `${path}.tool_result.content.${c}`, block: inner });
        });
    });
  });
  return found;
}

/** Width and height of a PNG from its IHDR chunk; undefined for other formats. */
function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < 24 || bytes.toString('latin1', 1, 4) !== 'PNG') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The format an image's bytes show by their signature (what the API checks media_type against); undefined if none. */
function imageSignature(bytes: Buffer): string | undefined {
  if (bytes[0] === 0x89 && bytes.toString('latin1', 1, 4) === 'PNG') return 'image/png';
  if (bytes.toString('latin1', 0, 4) === 'GIF8') return 'image/gif';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/** Pages of a PDF by its page objects. */
export function fakePdfPages(bytes: Buffer): number {
  return bytes.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
}

function imageProblem(path: string, source: Record<string, unknown>, imageCount: number): string | null {
  if (source.type !== 'base64') return null;
  if (!IMAGE_TYPES.includes(String(source.media_type)))
    return `${path}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
  const data = typeof source.data === 'string' ? source.data : '';
  if (data.length > MAX_IMAGE_BASE64_BYTES)
    return `${path}.image.source.base64: image exceeds 5 MB maximum: ${data.length} bytes > ${MAX_IMAGE_BASE64_BYTES} bytes`;
  const head = Buffer.from(data.slice(0, 64), 'base64');
  const actual = imageSignature(head);
  if (actual && actual !== source.media_type)
    return `${path}.image.source.base64: The image was specified using the ${String(source.media_type)} media type, but the image appears to be a ${actual} image`;
  const size = pngSize(head);
  const side = imageCount > 20 ? 2000 : 8000;
  if (size && (size.width > side || size.height > side))
    return `${path}.image.source.base64.data: At least one of the image dimensions exceed max allowed size${imageCount > 20 ? ' for many-image requests' : ''}: ${side} pixels`;
  return null;
}

/** The 400 message the real API answers for the request's images and PDFs, or null. */
export function mediaProblem(body: Record<string, unknown>): string | null {
  const blocks = mediaBlocks(Array.isArray(body.messages) ? body.messages : []);
  const images = blocks.filter((f) => f.block.type === 'image');
  if (images.length > MAX_IMAGES)
    return `messages: Too many images: ${images.length} > ${MAX_IMAGES} images per request`;
  let pages = 0;
  for (const { path, block } of blocks) {
    const source = isRecord(block.source) ? block.source : {};
    if (block.type === 'image') {
      const problem = imageProblem(path, source, images.length);
      if (problem) return problem;
      continue;
    }
    if (source.type === 'text') {
      if (source.media_type !== 'text/plain')
        return `${path}.document.source.text.media_type: Input should be 'text/plain'`;
      continue;
    }
    if (source.type !== 'base64') continue;
    if (source.media_type !== 'application/pdf')
      return `${path}.document.source.base64.media_type: Input should be 'application/pdf'`;
    const bytes = Buffer.from(typeof source.data === 'string' ? source.data : '', 'base64');
    if (!bytes.toString('latin1', 0, 1024).includes('%PDF-'))
      return `${path}.document.source.base64.data: The PDF specified was not valid.`;
    if (/\/Encrypt\s/.test(bytes.toString('latin1')))
      return `${path}.document.source.base64.data: The PDF specified is password protected or encrypted.`;
    pages += fakePdfPages(bytes);
  }
  if (pages > MAX_PDF_PAGES) return `A maximum of ${MAX_PDF_PAGES} PDF pages may be provided.`;
  return null;
}
