// Tool search with the word vectors the app ships (public/search/word-vectors.bin): the file is whole, and with it the
// search tells apart tools that its words alone cannot.
import { describe, expect, it } from 'vitest';
import { createToolIndex } from '../../src/search/tool-index';
import { parseWordVectors } from '../../src/search/word-vectors';
import { searchableTool as tool, shippedWordVectorsFile } from '../fakes/search-tools';

const vectors = parseWordVectors(shippedWordVectorsFile());

describe('tool search with the shipped word vectors', () => {
  it('holds 50,000 English words of 100 dimensions', () => {
    expect(vectors).toMatchObject({ size: 50_000, dimensions: 100 });
    for (const word of ['weather', 'invoice', 'sofa', 'broken', 'password'])
      expect(vectors.row(word)).toBeGreaterThan(-1);
  });

  it('ranks first the tool whose meaning is nearer the request when the words tie', () => {
    const index = createToolIndex();
    index.upsertServer('store', [tool('store', 'place_order', 'Order a sofa, a table or a chair for delivery.')]);
    index.upsertServer('repairs', [
      tool('repairs', 'repair_request', 'Ask for a repair of a sofa, a table or a chair.'),
    ]);
    const scope = { serverIds: new Set(['store', 'repairs']) };
    const first = (query: string) => index.search(query, { scope }).matches[0]?.ref.toolName;
    // "sofa" is the only word both tools hold, equally: by words alone the tie goes to the tool indexed first.
    expect(first('my sofa is broken')).toBe('place_order');
    index.setWordVectors(vectors);
    expect(first('my sofa is broken')).toBe('repair_request');
    expect(first('please fix my table')).toBe('repair_request');
    expect(first('I would like a new sofa delivered')).toBe('place_order');
    index.setWordVectors(undefined);
    expect(first('my sofa is broken')).toBe('place_order');
  });
});
