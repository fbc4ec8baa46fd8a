/** An image made smaller in the browser: its bytes, type and pixel size, and the size it had (as shown, upright). */
export interface ShrunkImage {
  readonly bytes: Uint8Array;
  readonly mimeType: string;
  readonly width: number;
  readonly height: number;
  readonly fromWidth: number;
  readonly fromHeight: number;
}

/**
 * The long edge an image is shrunk to: within every size the API takes (8000 px, and 2000 px once a request holds
 * more than 20 images, https://platform.claude.com/docs/en/build-with-claude/vision), so it never has to be shrunk
 * twice.
 */
export const SHRINK_TO_SIDE = 2000;

/** The output formats tried in turn: WebP keeps transparency; JPEG (where a browser cannot write WebP) is drawn on white. */
const FORMATS = [
  ['image/webp', 0.85],
  ['image/jpeg', 0.85],
  ['image/jpeg', 0.6],
] as const;

/**
 * Decodes an image (upright, as its EXIF says) and draws it again at most `maxSide` pixels on its long edge; undefined
 * when the browser cannot decode or draw it, or the result is still over `maxBytes`. Never throws.
 */
export async function shrinkImage(
  bytes: Uint8Array,
  mimeType: string,
  maxBytes: number,
  maxSide = SHRINK_TO_SIDE,
): Promise<ShrunkImage | undefined> {
  if (typeof createImageBitmap === 'undefined' || typeof OffscreenCanvas === 'undefined') return undefined;
  let bitmap: ImageBitmap | undefined;
  try {
    bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mimeType }));
    const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    for (const [type, quality] of FORMATS) {
      const canvas = new OffscreenCanvas(width, height);
      const context = canvas.getContext('2d');
      if (!context) return undefined;
      // JPEG has no transparency: a clear background would come out black.
      if (type === 'image/jpeg') {
        context.fillStyle = '#fff';
        context.fillRect(0, 0, width, height);
      }
      context.imageSmoothingQuality = 'high';
      context.drawImage(bitmap, 0, 0, width, height);
      const blob = await canvas.convertToBlob({ type, quality });
      if (blob.type !== type || blob.size > maxBytes) continue;
      const out = new Uint8Array(await blob.arrayBuffer());
      return { bytes: out, mimeType: type, width, height, fromWidth: bitmap.width, fromHeight: bitmap.height };
    }
    return undefined;
  } catch {
    return undefined; // Not an image this browser can read, or out of memory: the size check's own message stands.
  } finally {
    bitmap?.close();
  }
}
