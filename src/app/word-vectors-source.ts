import { parseWordVectors, type WordVectors } from '../search/word-vectors';

/** Where the built app serves tool search's word vectors (public/search/word-vectors.bin). */
export const WORD_VECTORS_FILE = 'search/word-vectors.bin';

/** Fetches and reads the word vectors; throws with the reason when the file is missing or not one. */
export async function fetchWordVectors(fetchFn: typeof fetch, url: string): Promise<WordVectors> {
  const response = await fetchFn(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return parseWordVectors(await response.arrayBuffer());
}
