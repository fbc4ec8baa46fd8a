// Shared by the benchmark scripts: build the app's index over a tool list, rank queries, score the ranking.
import type { SearchableTool } from '../../src/search/tool-document';
import { parseWordVectors, type WordVectors } from '../../src/search/word-vectors';
import { shippedWordVectorsFile } from '../fakes/search-tools';
import {
  createToolIndex,
  DEFAULT_TUNING,
  type IndexTuning,
  type SearchScope,
  type ToolIndex,
} from '../../src/search/tool-index';
import type { BenchQuery } from './dataset';
import { quality } from './metrics';

/** A scope that holds every server of the tools. */
export function scopeOf(tools: readonly SearchableTool[]): SearchScope {
  return { serverIds: new Set(tools.map((t) => t.serverId)) };
}

/** Tools grouped by server, in first-seen order (Node 20 has no Map.groupBy). */
export function groupByServer(tools: readonly SearchableTool[]): Map<string, SearchableTool[]> {
  const groups = new Map<string, SearchableTool[]>();
  for (const tool of tools) {
    const list = groups.get(tool.serverId);
    if (list) list.push(tool);
    else groups.set(tool.serverId, [tool]);
  }
  return groups;
}

let wordVectors: WordVectors | undefined;
/** The app's word vectors (public/search/word-vectors.bin), read once. */
export function appWordVectors(): WordVectors {
  if (!wordVectors) {
    wordVectors = parseWordVectors(shippedWordVectorsFile());
  }
  return wordVectors;
}

/** The app's index over `tools` as it runs once the word vectors have loaded (read once, shared by every index). */
export function buildAppIndex(tools: readonly SearchableTool[], tuning: IndexTuning = DEFAULT_TUNING): ToolIndex {
  const index = createToolIndex(tuning);
  index.setWordVectors(appWordVectors());
  for (const [serverId, list] of groupByServer(tools)) index.upsertServer(serverId, list);
  return index;
}

/** The top-k ids (`server/name`) of each query with the app's index. */
export function rankWithApp(
  tools: readonly SearchableTool[],
  queries: readonly BenchQuery[],
  k: number,
  tuning: IndexTuning = DEFAULT_TUNING,
): string[][] {
  const index = buildAppIndex(tools, tuning);
  const scope = scopeOf(tools);
  return queries.map((q) =>
    index.search(q.text, { scope, limit: k }).matches.map((m) => `${m.serverName}/${m.ref.toolName}`),
  );
}

/** Quality of the app's ranking with some tuning. */
export function evaluate(
  tools: readonly SearchableTool[],
  queries: readonly BenchQuery[],
  tuning: IndexTuning = DEFAULT_TUNING,
): Record<string, number> {
  return quality(queries, rankWithApp(tools, queries, 10, tuning));
}
