/** An image made smaller in the browser: its bytes, type and pixel size. */
export interface ShrunkImage {
  readonly bytes: Uint8Array;
  readonly mimeType: string;
  readonly width: number;
  readonly height: number;
}

/**
 * The long edge the model API scales every image down to anyway (https://platform.claude.com/docs/en/build-with-claude/
 * vision, "Evaluate image size"): an image shrunk to it shows the model all it would have seen.
 */
export const SHRINK_TO_SIDE = 1568;

/**
 * Decodes an image and draws it again at most `maxSide` pixels on its long edge, as WebP (keeps transparency) or, where
 * the browser cannot write WebP, JPEG; undefined when the browser cannot decode it or the result is still over
 * `maxBytes`.
 */
export async function shrinkImage(
  bytes: Uint8Array,
  mimeType: string,
  maxBytes: number,
  maxSide = SHRINK_TO_SIDE,
): Promise<ShrunkImage | undefined> {
  if (typeof createImageBitmap === 'undefined' || typeof OffscreenCanvas === 'undefined') return undefined;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mimeType }));
  } catch {
    return undefined; // Not an image this browser can read: the size check's own message stands.
  }
  const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) return undefined;
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  for (const [type, quality] of [
    ['image/webp', 0.85],
    ['image/jpeg', 0.85],
    ['image/jpeg', 0.6],
  ] as const) {
    const blob = await canvas.convertToBlob({ type, quality });
    if (blob.type !== type || blob.size > maxBytes) continue;
    return { bytes: new Uint8Array(await blob.arrayBuffer()), mimeType: type, width, height };
  }
  return undefined;
}
