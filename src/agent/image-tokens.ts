// What an image costs the model in tokens: its pixels, not its base64 length. The API scales an image down until it
// fits 1,568 px on its long edge and about 1.15 megapixels, and an image costs about width x height / 750 tokens, so no
// image costs more than about 1,600 tokens (https://platform.claude.com/docs/en/build-with-claude/vision, "Calculate
// image costs").

/** The most tokens one image costs after the API scales it down. */
export const MAX_IMAGE_TOKENS = 1600;

/** Width and height from a PNG's IHDR chunk (bytes 16-23), or undefined for other data. */
function pngSize(base64: string): { width: number; height: number } | undefined {
  let head: string;
  try {
    head = atob(base64.slice(0, 32));
  } catch {
    return undefined;
  }
  if (head.length < 24 || head.slice(1, 4) !== 'PNG') return undefined;
  const u32 = (at: number) =>
    ((head.charCodeAt(at) << 24) >>> 0) +
    (head.charCodeAt(at + 1) << 16) +
    (head.charCodeAt(at + 2) << 8) +
    head.charCodeAt(at + 3);
  return { width: u32(16), height: u32(20) };
}

/** Estimated tokens of one base64 image: a PNG by its pixels, other formats as the largest image (never less). */
export function imageTokens(base64: string): number {
  const size = pngSize(base64);
  if (!size) return MAX_IMAGE_TOKENS;
  return Math.max(1, Math.min(MAX_IMAGE_TOKENS, Math.ceil((size.width * size.height) / 750)));
}
