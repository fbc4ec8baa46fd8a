import { describe, expect, it } from 'vitest';
import type { SearchableTool } from './tool-document';
import { createToolIndex } from './tool-index';
import { encodeWordVectors, parseWordVectors } from './word-vectors';

// Made-up words, so that no hand-written word list of the search knows them: only the vectors relate "kwix" to "zuba".
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

const tool = (server: string, description: string): SearchableTool => ({
  serverId: server,
  serverName: server,
  toolName: 'act',
  modelName: `${server}__act`,
  description,
  definition: { name: 'act', description, inputSchema: { type: 'object' } },
});

describe('semantic re-ranking', () => {
  it('breaks a tie of words toward the nearer meaning, and follows a server that re-lists its tools', () => {
    const index = createToolIndex();
    index.setWordVectors(vectors);
    index.upsertServer('first', [tool('first', 'Plom the trel.')]);
    index.upsertServer('second', [tool('second', 'Zuba the trel.')]);
    const scope = { serverIds: new Set(['first', 'second']) };
    const order = (query: string) => index.search(query, { scope }).matches.map((m) => m.serverName);
    expect(order('kwix trel')).toEqual(['second', 'first']);
    // A word no vector knows moves nothing: the tie goes to the tool indexed first.
    expect(order('blorf trel')).toEqual(['first', 'second']);

    // Re-listed the other way round (second, then first: by words alone the tie now goes to second).
    index.upsertServer('second', [tool('second', 'Plom the trel.')]);
    index.upsertServer('first', [tool('first', 'Zuba the trel.')]);
    expect(order('kwix trel')).toEqual(['first', 'second']);
    index.setWordVectors(undefined);
    expect(order('kwix trel')).toEqual(['second', 'first']);
  });
});
