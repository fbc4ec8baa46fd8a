import { MAX_IMAGE_BASE64, MAX_IMAGE_SIDE } from './attachment-kind';
import { base64Decode, formatBytes } from './byte-size';

// Reads what the API checks from a file's own bytes: an image's pixel size, a PDF's pages and whether it is encrypted.

/** The image types the model API takes. */
export const API_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** The type an image's own bytes show by their signature (PNG, GIF, JPEG, WebP), or undefined. */
export function imageTypeOf(bytes: Uint8Array): string | undefined {
  const at = (i: number) => bytes[i] ?? 0;
  const ascii = (i: number, n: number) => String.fromCharCode(...bytes.subarray(i, i + n));
  if (at(0) === 0x89 && ascii(1, 3) === 'PNG') return 'image/png';
  if (ascii(0, 4) === 'GIF8') return 'image/gif';
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'image/jpeg';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * The media type to send an image with: the one its bytes show, whatever a file's name or a server declared (the API
 * refuses an image whose data does not match its media_type, and the refused image would stay in the thread's history);
 * the declared one when the bytes show none. Only the first bytes of the base64 data are decoded.
 */
export function sentImageType(declared: string, base64: string): string {
  let head: Uint8Array;
  try {
    head = Uint8Array.from(atob(base64.slice(0, 64).replace(/\s/g, '').slice(0, 16)), (c) => c.charCodeAt(0));
  } catch {
    return declared;
  }
  return imageTypeOf(head) ?? declared;
}

/**
 * Why the API would refuse this image (base64): over 5 MB once encoded, or over 8000 px a side; undefined when it
 * would not, or cannot be told. A refused image kept in a thread would fail every later request of the thread.
 */
export function imageLimitProblem(base64: string): string | undefined {
  if (base64.length > MAX_IMAGE_BASE64)
    return `it is ${formatBytes(base64.length)} once encoded, and the API takes images up to 5 MB`;
  const pixels = pixelsOverSide(base64);
  if (pixels)
    return `it is ${pixels.width}x${pixels.height} px and the API takes images up to ${MAX_IMAGE_SIDE}x${MAX_IMAGE_SIDE} px`;
  return undefined;
}

/** The image's size in pixels when a side is over the API's 8000 px, else undefined (also when it cannot be read). */
export function pixelsOverSide(base64: string): { width: number; height: number } | undefined {
  const pixels = base64ImageSize(base64);
  return pixels && (pixels.width > MAX_IMAGE_SIDE || pixels.height > MAX_IMAGE_SIDE) ? pixels : undefined;
}

/**
 * The size in pixels of an image given as base64, when its bytes decode and show one. Only a head is decoded: 48
 * bytes for PNG, GIF and WebP; 96 KB for a JPEG, whose size follows its metadata segments (at most 64 KB each, and
 * seldom more than one).
 */
export function base64ImageSize(base64: string): { width: number; height: number } | undefined {
  const first = decodeHead(base64, 64);
  if (!first) return undefined;
  if (first[0] !== 0xff || first[1] !== 0xd8) return imageSize(first);
  const head = decodeHead(base64, 128 * 1024);
  return head && imageSize(head);
}

/** The bytes of the first `chars` characters of base64 data (whole groups of 4), or undefined if it is not base64. */
function decodeHead(base64: string, chars: number): Uint8Array | undefined {
  const text = base64
    .slice(0, chars * 2)
    .replace(/\s/g, '')
    .slice(0, chars)
    .replace(/=+$/, '');
  try {
    return base64Decode(text.slice(0, text.length - (text.length % 4)));
  } catch {
    return undefined;
  }
}

/** Width and height of a PNG, GIF, JPEG or WebP image, or undefined when the header is not one of those. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const at = (i: number) => bytes[i] ?? 0;
  const be16 = (i: number) => (at(i) << 8) | at(i + 1);
  const le16 = (i: number) => at(i) | (at(i + 1) << 8);
  const be32 = (i: number) => ((at(i) << 24) >>> 0) + (at(i + 1) << 16) + (at(i + 2) << 8) + at(i + 3);
  const ascii = (i: number, n: number) => String.fromCharCode(...bytes.subarray(i, i + n));
  if (ascii(1, 3) === 'PNG') return { width: be32(16), height: be32(20) };
  if (ascii(0, 3) === 'GIF') return { width: le16(6), height: le16(8) };
  if (ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP') {
    const chunk = ascii(12, 4);
    if (chunk === 'VP8 ') return { width: le16(26) & 0x3fff, height: le16(28) & 0x3fff };
    if (chunk === 'VP8L') {
      const b = (i: number) => at(21 + i);
      return {
        width: 1 + (((b(1) & 0x3f) << 8) | b(0)),
        height: 1 + (((b(3) & 0xf) << 10) | (b(2) << 2) | (b(1) >> 6)),
      };
    }
    if (chunk === 'VP8X')
      return {
        width: 1 + (at(24) | (at(25) << 8) | (at(26) << 16)),
        height: 1 + (at(27) | (at(28) << 8) | (at(29) << 16)),
      };
    return undefined;
  }
  if (at(0) === 0xff && at(1) === 0xd8) {
    // JPEG: walk the segments to the first start-of-frame marker.
    let i = 2;
    while (i + 9 < bytes.length) {
      if (at(i) !== 0xff) return undefined;
      const marker = at(i + 1);
      const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isFrame) return { width: be16(i + 7), height: be16(i + 5) };
      i += 2 + be16(i + 2);
    }
  }
  return undefined;
}

const latin1 = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes);

/** Pages of a PDF counted by its page objects (`/Type /Page`); 0 when none is found (a compressed object stream). */
export function pdfPages(bytes: Uint8Array): number {
  return latin1(bytes).match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
}

/** Whether the bytes start like a PDF. */
export const isPdf = (bytes: Uint8Array): boolean => latin1(bytes.subarray(0, 1024)).includes('%PDF-');

/** Whether a PDF is encrypted (its trailer names an /Encrypt dictionary); the API takes no encrypted PDF. */
export const isEncryptedPdf = (bytes: Uint8Array): boolean => /\/Encrypt\s/.test(latin1(bytes));
