// The heap of the app's tool-search index beside the raw text of its tool documents (issue #23's memory goal), for
// bench:search --replicate.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parameterText, type SearchableTool } from '../../src/search/tool-document';
import { parseWordVectors } from '../../src/search/word-vectors';
import { shippedWordVectorsFile } from '../fakes/search-tools';
import type { BenchQuery } from './dataset';
import { appWordVectors, buildAppIndex, scopeOf } from './evaluate';
import { round } from './metrics';

/**
 * The heap the index of `tools` holds (measured with a forced GC before and after building it; the tools themselves
 * are the app's and already in memory), beside the raw text of the tool documents: name, server name, description and
 * the parameter text the index reads from the schema (and, for comparison, the tools' JSON as a server sends it).
 */
export function indexHeap(
  tools: readonly SearchableTool[],
  queries: readonly BenchQuery[],
  k: number,
): Record<string, number> {
  const gc = globalGc();
  appWordVectors();
  gc();
  const before = process.memoryUsage().heapUsed;
  const index = buildAppIndex(tools);
  gc();
  const heapBytes = process.memoryUsage().heapUsed - before;
  // The semantic re-ranking caches the vectors of the tools it has compared: the heap again after every query has run.
  const scope = scopeOf(tools);
  for (const q of queries) index.search(q.text, { scope, limit: k });
  gc();
  const afterQueriesBytes = process.memoryUsage().heapUsed - before;
  // The word vectors themselves: one copy per page, whatever the catalog.
  const file = shippedWordVectorsFile();
  gc();
  const beforeVectors = process.memoryUsage().heapUsed;
  const vectors = parseWordVectors(file);
  gc();
  const vectorsBytes = process.memoryUsage().heapUsed - beforeVectors + file.byteLength;
  if (vectors.size === 0) throw new Error('no word vectors');
  const rawTextBytes = tools.reduce(
    (sum, t) =>
      sum +
      Buffer.byteLength(t.toolName) +
      Buffer.byteLength(t.serverName) +
      Buffer.byteLength(t.description) +
      Buffer.byteLength(parameterText(t.definition)),
    0,
  );
  const jsonBytes = tools.reduce((sum, t) => sum + Buffer.byteLength(JSON.stringify(t.definition)), 0);
  if (index.size !== tools.length) throw new Error('the heap run indexed a different catalog');
  return {
    indexHeapMB: round(heapBytes / 2 ** 20, 2),
    indexHeapAfterQueriesMB: round(afterQueriesBytes / 2 ** 20, 2),
    wordVectorsMB: round(vectorsBytes / 2 ** 20, 2),
    rawTextMB: round(rawTextBytes / 2 ** 20, 2),
    ratioToRawText: round(heapBytes / rawTextBytes, 2),
    toolJsonMB: round(jsonBytes / 2 ** 20, 2),
  };
}

/** The engine's garbage collector, exposed on demand. */
function globalGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
