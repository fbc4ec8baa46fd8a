// Word vectors for tool search's semantic re-ranking (issue #23): a general-purpose English embedding (GloVe, built by
// test/bench/make-word-vectors.ts into public/search/word-vectors.bin), read from one binary file:
//   "WVEC", version 1, 3 bytes reserved | u32 words | u32 dimensions | u32 byte length of the words |
//   the words, UTF-8, one per line | padding to 4 bytes | f32 scale per word | int8 vector per word (little endian).
// A word's vector is its int8 values times its scale, unit length within rounding.

const MAGIC = 'WVEC';
const VERSION = 1;
const HEADER_BYTES = 20;
/** Bounds that no real file of ours comes near; a file past them is refused rather than allocated. */
const MAX_WORDS = 1_000_000;
const MAX_DIMENSIONS = 1_024;

/** A word vectors file that cannot be read: what is wrong with it, for the log. */
export class WordVectorsFormatError extends Error {
  override readonly name = 'WordVectorsFormatError';
}

/** Read-only word vectors. */
export interface WordVectors {
  readonly dimensions: number;
  readonly size: number;
  /** The row of a lowercase word, or -1 when the file has no vector for it. */
  row(word: string): number;
  /** Adds `weight` times the row's vector to `target` (of `dimensions` entries). */
  addTo(target: Float32Array, row: number, weight: number): void;
}

const pad4 = (n: number): number => Math.ceil(n / 4) * 4;

/** The file for these words and vectors (each vector made unit length, then quantized with its own scale). */
export function encodeWordVectors(
  words: readonly string[],
  vectors: readonly (readonly number[])[],
): Uint8Array<ArrayBuffer> {
  if (words.length !== vectors.length) {
    throw new WordVectorsFormatError(`${words.length} words but ${vectors.length} vectors`);
  }
  if (words.some((word) => word.includes('\n'))) throw new WordVectorsFormatError('a word holds a line break');
  const dimensions = vectors[0]?.length ?? 0;
  const text = new TextEncoder().encode(words.join('\n'));
  const scalesAt = pad4(HEADER_BYTES + text.byteLength);
  const valuesAt = scalesAt + 4 * words.length;
  const bytes = new Uint8Array(valuesAt + words.length * dimensions);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(MAGIC), 0);
  view.setUint8(4, VERSION);
  view.setUint32(8, words.length, true);
  view.setUint32(12, dimensions, true);
  view.setUint32(16, text.byteLength, true);
  bytes.set(text, HEADER_BYTES);
  const values = new Int8Array(bytes.buffer, valuesAt);
  vectors.forEach((vector, row) => {
    if (vector.length !== dimensions) throw new WordVectorsFormatError(`vector ${row} has ${vector.length} values`);
    if (!vector.every(Number.isFinite))
      throw new WordVectorsFormatError(`vector ${row} holds a value that is not finite`);
    const norm = Math.hypot(...vector) || 1;
    const largest = Math.max(...vector.map((x) => Math.abs(x / norm))) || 1;
    const scale = largest / 127;
    view.setFloat32(scalesAt + 4 * row, scale, true);
    for (let i = 0; i < dimensions; i++) values[row * dimensions + i] = Math.round(vector[i]! / norm / scale);
  });
  return bytes;
}

/** Reads a word vectors file; throws WordVectorsFormatError when it is not one, or is cut short. */
export function parseWordVectors(buffer: ArrayBuffer): WordVectors {
  if (buffer.byteLength < HEADER_BYTES) throw new WordVectorsFormatError('the file is shorter than its header');
  const view = new DataView(buffer);
  const magic = new TextDecoder().decode(new Uint8Array(buffer, 0, 4));
  if (magic !== MAGIC) throw new WordVectorsFormatError('not a word vectors file (its first bytes are not "WVEC")');
  const version = view.getUint8(4);
  if (version !== VERSION) throw new WordVectorsFormatError(`version ${version} is not known (this app reads 1)`);
  const size = view.getUint32(8, true);
  const dimensions = view.getUint32(12, true);
  const textBytes = view.getUint32(16, true);
  if (size === 0 || size > MAX_WORDS || dimensions === 0 || dimensions > MAX_DIMENSIONS) {
    throw new WordVectorsFormatError(`${size} words of ${dimensions} dimensions is not a usable shape`);
  }
  const scalesAt = pad4(HEADER_BYTES + textBytes);
  const valuesAt = scalesAt + 4 * size;
  const expected = valuesAt + size * dimensions;
  if (buffer.byteLength !== expected) {
    throw new WordVectorsFormatError(`the file has ${buffer.byteLength} bytes; its header promises ${expected}`);
  }
  let words: string;
  try {
    words = new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(buffer, HEADER_BYTES, textBytes));
  } catch {
    throw new WordVectorsFormatError('its words are not UTF-8 text');
  }
  const list = words.split('\n');
  if (list.length !== size) throw new WordVectorsFormatError(`the file lists ${list.length} words, not ${size}`);
  const rows = new Map<string, number>();
  list.forEach((word, row) => {
    if (!rows.has(word)) rows.set(word, row);
  });
  const scales = new Float32Array(buffer.slice(scalesAt, valuesAt));
  // A scale that is not a finite number would make every score it touches NaN, and the ranking arbitrary.
  const badScale = scales.findIndex((scale) => !Number.isFinite(scale) || scale < 0);
  if (badScale >= 0) throw new WordVectorsFormatError(`the scale of "${list[badScale]}" is not a usable number`);
  const values = new Int8Array(buffer, valuesAt, size * dimensions);
  return {
    dimensions,
    size,
    row: (word) => rows.get(word) ?? -1,
    addTo(target, row, weight) {
      const k = weight * scales[row]!;
      const start = row * dimensions;
      for (let i = 0; i < dimensions; i++) target[i]! += k * values[start + i]!;
    },
  };
}
