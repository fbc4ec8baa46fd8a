import { describe, expect, it } from 'vitest';
import type { SearchableTool } from '../search/tool-document';
import { createToolIndex } from '../search/tool-index';
import { encodeWordVectors, parseWordVectors } from '../search/word-vectors';
import { attachWordVectors } from './word-vectors-loading';

const tool = (server: string, description: string): SearchableTool => ({
  serverId: server,
  serverName: server,
  toolName: 'act',
  modelName: `${server}__act`,
  description,
  definition: { name: 'act', description, inputSchema: { type: 'object' } },
});

describe('word vectors reaching the tool index', () => {
  it('once they have loaded, search tells apart by meaning two tools that its words tie', async () => {
    const index = createToolIndex();
    index.upsertServer('first', [tool('first', 'Plom the trel.')]);
    index.upsertServer('second', [tool('second', 'Zuba the trel.')]);
    const scope = { serverIds: new Set(['first', 'second']) };
    const order = () => index.search('kwix trel', { scope }).matches.map((m) => m.serverName);
    expect(order()).toEqual(['first', 'second']);
    const vectors = parseWordVectors(
      encodeWordVectors(
        ['plom', 'zuba', 'kwix', 'trel'],
        [
          [1, 0, 0],
          [0, 1, 0],
          [0.1, 0.99, 0],
          [0, 0, 1],
        ],
      ).slice().buffer,
    );
    const warnings: string[] = [];
    await attachWordVectors(index, () => Promise.resolve(vectors), {
      warn: (message) => warnings.push(message),
      debug: () => undefined,
    });
    expect(order()).toEqual(['second', 'first']);
    expect(warnings).toEqual([]);
  });
});
