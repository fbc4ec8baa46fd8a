// Tools and word vectors for tool-search tests.
import type { SearchableTool } from '../../src/search/tool-document';
import { encodeWordVectors, parseWordVectors, type WordVectors } from '../../src/search/word-vectors';

/** A tool as the index takes it: its server's only name is its id. */
export const searchableTool = (server: string, toolName: string, description: string): SearchableTool => ({
  serverId: server,
  serverName: server,
  toolName,
  modelName: `${server}__${toolName}`,
  description,
  definition: { name: toolName, description, inputSchema: { type: 'object' } },
});

/**
 * Word vectors of made-up words, so that no hand-written word list of the search knows them: only these vectors relate
 * "kwix" to "zuba" (and not to "plom"); "trel" is a word of its own.
 */
export function madeUpWordVectors(): WordVectors {
  const bytes = encodeWordVectors(
    ['plom', 'zuba', 'kwix', 'trel'],
    [
      [1, 0, 0],
      [0, 1, 0],
      [0.1, 0.99, 0],
      [0, 0, 1],
    ],
  );
  return parseWordVectors(bytes.buffer);
}
