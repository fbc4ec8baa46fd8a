// Tools and word vectors for tool-search tests.
import { readFileSync } from 'node:fs';
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

/** The bytes of the word vectors the app ships (public/search/word-vectors.bin), as a page's fetch would give them. */
export function shippedWordVectorsFile(): ArrayBuffer {
  const bytes = readFileSync(new URL('../../public/search/word-vectors.bin', import.meta.url));
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}
