// npm run --silent bench:search -- --tools FILE --queries FILE [--k 10] [--replicate 10000] [--chunk 500]
// Ranks every query with the app's search (src/search, the same module the app uses): one JSON line per query on
// stdout ({"id", "top": ["server/name", ...]}), and a summary on stderr: build and query times, recall@1/5/10 and
// allGold@5, next to two baselines measured in the same run. --replicate N adds a speed run on the tool catalog
// copied with distinct server names up to N tools (index build, query p50/p95, the longest chunk of a chunked build).
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import MiniSearch from 'minisearch';
import { buildIndexInChunks } from '../../src/search/chunked-build';
import type { SearchableTool } from '../../src/search/tool-document';
import { createToolIndex, type ToolIndex } from '../../src/search/tool-index';
import { readQueries, readTools, replicateTools, toolId, type BenchQuery } from './dataset';
import { groupByServer, scopeOf } from './evaluate';
import { percentile, quality, round } from './metrics';
import { createOkapi } from './okapi';

const { values } = parseArgs({
  options: {
    tools: { type: 'string' },
    queries: { type: 'string' },
    k: { type: 'string', default: '10' },
    replicate: { type: 'string' },
    chunk: { type: 'string', default: '500' },
    runs: { type: 'string', default: '5' },
  },
});
if (!values.tools || !values.queries) {
  console.error(
    'usage: bench:search -- --tools tools.json --queries queries.json [--k 10] [--replicate 10000] [--chunk 500]',
  );
  process.exit(2);
}
const k = Math.max(1, Number(values.k));
const runs = Math.max(1, Number(values.runs));
const median = (xs: readonly number[]): number => round(percentile(xs, 50));

function buildIndex(tools: readonly SearchableTool[]): ToolIndex {
  const index = createToolIndex();
  for (const [serverId, list] of groupByServer(tools)) index.upsertServer(serverId, list);
  return index;
}

/** Median build time over `runs` builds after a first, cold one (JIT, the stemmer's cache), and the last index. */
function timedBuild<T>(build: () => T): { ms: number; coldMs: number; value: T } {
  const times: number[] = [];
  const coldStart = performance.now();
  let value = build();
  const coldMs = round(performance.now() - coldStart);
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    value = build();
    times.push(performance.now() - start);
  }
  return { ms: median(times), coldMs, value };
}

/** Ranked ids per query and the time of each query (after one warm-up pass; `passes` runs over small query sets). */
function timedQueries(
  queries: readonly BenchQuery[],
  rank: (text: string) => string[],
): { tops: string[][]; times: number[] } {
  for (const q of queries.slice(0, 50)) rank(q.text);
  const passes = Math.max(1, Math.ceil(500 / Math.max(1, queries.length)));
  const times: number[] = [];
  let tops: string[][] = [];
  for (let pass = 0; pass < passes; pass++) {
    tops = queries.map((q) => {
      const start = performance.now();
      const top = rank(q.text);
      times.push(performance.now() - start);
      return top;
    });
  }
  return { tops, times };
}

const timing = (buildMs: number, times: readonly number[]) => ({
  indexBuildMs: buildMs,
  queryP50Ms: round(percentile(times, 50)),
  queryP95Ms: round(percentile(times, 95)),
});

const tools = readTools(values.tools);
const queries = readQueries(values.queries);

// The app's search.
const app = timedBuild(() => buildIndex(tools));
const scope = scopeOf(tools);
const appRun = timedQueries(queries, (text) =>
  app.value.search(text, { scope, limit: k }).matches.map((m) => `${m.serverName}/${m.ref.toolName}`),
);
queries.forEach((q, i) => process.stdout.write(`${JSON.stringify({ id: q.id, top: appRun.tops[i] })}\n`));
const appQuality = quality(queries, appRun.tops);

// Baseline 1: minisearch with its defaults over name and description.
const plain = timedBuild(() => {
  const mini = new MiniSearch<{ id: number; name: string; description: string }>({ fields: ['name', 'description'] });
  mini.addAll(tools.map((t, id) => ({ id, name: t.toolName, description: t.description })));
  return mini;
});
const plainRun = timedQueries(queries, (text) =>
  plain.value
    .search(text)
    .slice(0, k)
    .map((r) => toolId(tools[r.id as number]!)),
);
const plainQuality = quality(queries, plainRun.tops);

// Baseline 2: plain Okapi BM25 as the data README computes its reference numbers.
const okapi = timedBuild(() => createOkapi(tools));
const okapiRun = timedQueries(queries, (text) => okapi.value(text, k).map((i) => toolId(tools[i]!)));
const okapiQuality = quality(queries, okapiRun.tops);

const ratio = (a: number | undefined, b: number | undefined): number | null =>
  a !== undefined && b ? round(a / b, 2) : null;
const summary: Record<string, unknown> = {
  tools: tools.length,
  queries: queries.length,
  k,
  ...timing(app.ms, appRun.times),
  ...appQuality,
  baselineMinisearchDefaults: { ...timing(plain.ms, plainRun.times), ...plainQuality },
  baselineOkapi: { ...timing(okapi.ms, okapiRun.times), ...okapiQuality },
  ratioVsMinisearchDefaults: {
    recallAt5: ratio(appQuality.recallAt5, plainQuality.recallAt5),
    allGoldAt5: ratio(appQuality.allGoldAt5, plainQuality.allGoldAt5),
  },
  ratioVsOkapi: {
    recallAt5: ratio(appQuality.recallAt5, okapiQuality.recallAt5),
    allGoldAt5: ratio(appQuality.allGoldAt5, okapiQuality.allGoldAt5),
  },
};

if (values.replicate) {
  const big = replicateTools(values.tools, Number(values.replicate));
  const built = timedBuild(() => buildIndex(big));
  const bigScope = scopeOf(big);
  const bigRun = timedQueries(queries, (text) =>
    built.value.search(text, { scope: bigScope, limit: k }).matches.map((m) => m.modelName),
  );
  // A chunked build as the page would run it: the longest stretch without yielding is what a user could feel.
  const chunkSize = Math.max(1, Number(values.chunk));
  const chunks: number[] = [];
  let last = performance.now();
  const start = last;
  await buildIndexInChunks(big, {
    chunkSize,
    yield: async () => {
      chunks.push(performance.now() - last);
      await new Promise<void>((resolve) => setImmediate(resolve));
      last = performance.now();
    },
  });
  chunks.push(performance.now() - last);
  // The same baseline at this size: minisearch with its defaults over name and description.
  const bigPlain = timedBuild(() => {
    const mini = new MiniSearch<{ id: number; name: string; description: string }>({ fields: ['name', 'description'] });
    mini.addAll(big.map((t, id) => ({ id, name: t.toolName, description: t.description })));
    return mini;
  });
  const bigPlainRun = timedQueries(queries, (text) =>
    bigPlain.value
      .search(text)
      .slice(0, k)
      .map((r) => String(r.id)),
  );
  summary.replicated = {
    tools: big.length,
    servers: new Set(big.map((t) => t.serverId)).size,
    ...timing(built.ms, bigRun.times),
    baselineMinisearchDefaults: timing(bigPlain.ms, bigPlainRun.times),
    firstBuildMs: built.coldMs,
    chunkedBuild: {
      chunkSize,
      chunks: chunks.length,
      longestChunkMs: round(Math.max(...chunks)),
      totalMs: round(performance.now() - start),
    },
  };
}

console.error(JSON.stringify(summary, null, 2));
