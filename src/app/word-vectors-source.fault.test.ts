import { describe, expect, it } from 'vitest';
import { encodeWordVectors } from '../search/word-vectors';
import { fetchWordVectors } from './word-vectors-source';

const answering =
  (response: Response): typeof fetch =>
  () =>
    Promise.resolve(response);

describe('fetching the word vectors of tool search', () => {
  it('reads the file the server answers', async () => {
    const file = encodeWordVectors(['repair'], [[0.6, 0.8]]);
    const vectors = await fetchWordVectors(answering(new Response(file)), '/search/word-vectors.bin');
    expect(vectors.row('repair')).toBe(0);
  });

  it('says why when the file is missing, or a host answers its HTML page in its place', async () => {
    await expect(
      fetchWordVectors(answering(new Response('gone', { status: 404 })), '/search/word-vectors.bin'),
    ).rejects.toThrow('/search/word-vectors.bin answered 404');
    await expect(
      fetchWordVectors(answering(new Response('<!doctype html><title>App</title>')), '/search/word-vectors.bin'),
    ).rejects.toThrow(/not a word vectors file/);
  });
});
