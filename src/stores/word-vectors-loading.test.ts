import { describe, expect, it } from 'vitest';
import { madeUpWordVectors, searchableTool } from '../../test/fakes/search-tools';
import { createToolIndex } from '../search/tool-index';
import { attachWordVectors } from './word-vectors-loading';

const tool = (server: string, description: string) => searchableTool(server, 'act', description);

describe('word vectors reaching the tool index', () => {
  it('once they have loaded, search tells apart by meaning two tools that its words tie', async () => {
    const index = createToolIndex();
    index.upsertServer('first', [tool('first', 'Plom the trel.')]);
    index.upsertServer('second', [tool('second', 'Zuba the trel.')]);
    const scope = { serverIds: new Set(['first', 'second']) };
    const order = () => index.search('kwix trel', { scope }).matches.map((m) => m.serverName);
    expect(order()).toEqual(['first', 'second']);
    const vectors = madeUpWordVectors();
    const warnings: string[] = [];
    await attachWordVectors(index, () => Promise.resolve(vectors), {
      warn: (message) => warnings.push(message),
      debug: () => undefined,
    });
    expect(order()).toEqual(['second', 'first']);
    expect(warnings).toEqual([]);
  });
});
