import { describe, expect, it } from 'vitest';
import { encodeWordVectors, parseWordVectors, WordVectorsFormatError } from './word-vectors';

const fileOf = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer;
const vectorOf = (vectors: ReturnType<typeof parseWordVectors>, word: string): number[] => {
  const out = new Float32Array(vectors.dimensions);
  vectors.addTo(out, vectors.row(word), 1);
  return [...out];
};

describe('the word vectors file', () => {
  it('reads back each word as its unit vector (within int8 rounding), and knows no other word', () => {
    const bytes = encodeWordVectors(
      ['buy', 'sell', 'café'],
      [
        [3, 4, 0],
        [0, -2, 0],
        [1, 1, 1],
      ],
    );
    const vectors = parseWordVectors(fileOf(bytes));
    expect(vectors).toMatchObject({ size: 3, dimensions: 3 });
    const close = (actual: number[], expected: number[]) =>
      actual.forEach((x, i) => expect(x).toBeCloseTo(expected[i]!, 2));
    close(vectorOf(vectors, 'buy'), [0.6, 0.8, 0]);
    close(vectorOf(vectors, 'sell'), [0, -1, 0]);
    close(vectorOf(vectors, 'café'), [1 / Math.sqrt(3), 1 / Math.sqrt(3), 1 / Math.sqrt(3)]);
    expect(vectors.row('rent')).toBe(-1);
  });

  it('refuses, with the reason, a file that is not one, of another version, cut short, of an impossible shape, not UTF-8 or with a broken scale', () => {
    const good = encodeWordVectors(
      ['a1', 'b2'],
      [
        [1, 0],
        [0, 1],
      ],
    );
    const refused = (bytes: Uint8Array) => {
      try {
        parseWordVectors(fileOf(bytes));
      } catch (error) {
        expect(error).toBeInstanceOf(WordVectorsFormatError);
        return (error as Error).message;
      }
      throw new Error('the file was read');
    };
    expect(refused(new TextEncoder().encode('<!doctype html><html>not found</html>'))).toMatch(
      /not a word vectors file/,
    );
    expect(refused(good.slice(0, 10))).toMatch(/shorter than its header/);
    expect(refused(good.slice(0, good.length - 1))).toMatch(/has \d+ bytes; its header promises \d+/);
    const otherVersion = good.slice();
    otherVersion[4] = 2;
    expect(refused(otherVersion)).toMatch(/version 2 is not known/);
    const noWords = good.slice();
    new DataView(noWords.buffer).setUint32(8, 0, true);
    expect(refused(noWords)).toMatch(/0 words of 2 dimensions is not a usable shape/);
    // A header whose word text would run past the end of the file (past 4 GB): refused, not a RangeError.
    const hugeText = good.slice();
    new DataView(hugeText.buffer).setUint32(16, 2 ** 32 - 20, true);
    expect(refused(hugeText)).toMatch(/its header promises \d{10,}/);
    const notUtf8 = good.slice();
    notUtf8[20] = 0xff;
    expect(refused(notUtf8)).toMatch(/its words are not UTF-8 text/);
    // A scale that is not a number would turn every score it touches into NaN.
    const nanScale = good.slice();
    new DataView(nanScale.buffer).setFloat32(32, Number.NaN, true);
    expect(refused(nanScale)).toMatch(/the scale of "b2" is not a usable number/);
  });
});
