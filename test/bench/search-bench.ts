// npm run --silent bench:search -- --tools FILE --queries FILE [--k 10] [--replicate 10000] [--chunk 500]
// Ranks every query with the app's search (src/search, the same module the app uses): one JSON line per query on
// stdout ({"id", "top": ["server/name", ...]}), and a summary on stderr: build and query times, recall@1/5/10 and
// allGold@5, next to two baselines measured in the same run. --replicate N adds a speed run on the tool catalog
// copied with distinct server names up to N tools (index build, query p50/p95, the chunked build's longest chunk and its
// total against the one-shot build, one server re-listed, and the index's heap beside the raw text of the tools).
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import MiniSearch from 'minisearch';
import { buildIndexInChunks } from '../../src/search/chunked-build';
import type { SearchableTool } from '../../src/search/tool-document';
import type { ToolIndex } from '../../src/search/tool-index';
import { readQueries, readTools, replicateTools, toolId, type BenchQuery } from './dataset';
import { buildAppIndex, scopeOf } from './evaluate';
import { indexHeap } from './index-heap';
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

/** CPU time of this process since `since` (all its threads), in ms. */
const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/**
 * Median build time (wall clock, and CPU time: less at the mercy of other processes on a shared machine) over `runs`
 * builds after a first, cold one (JIT, the stemmer's cache), and the last index.
 */
function timedBuild<T>(build: () => T): { ms: number; cpuMs: number; coldMs: number; value: T } {
  const times: number[] = [];
  const cpuTimes: number[] = [];
  const coldStart = performance.now();
  let value = build();
  const coldMs = round(performance.now() - coldStart);
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    value = build();
    times.push(performance.now() - start);
    cpuTimes.push(cpuMs(cpu));
  }
  return { ms: median(times), cpuMs: median(cpuTimes), coldMs, value };
}

/** Ranked ids per query and the time of each query (after one warm-up pass; `passes` runs over small query sets). */
function timedQueries(
  queries: readonly BenchQuery[],
  rank: (text: string) => string[],
): { tops: string[][]; times: number[]; cpuTimes: number[] } {
  for (const q of queries.slice(0, 50)) rank(q.text);
  const passes = Math.max(1, Math.ceil(500 / Math.max(1, queries.length)));
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let tops: string[][] = [];
  for (let pass = 0; pass < passes; pass++) {
    tops = queries.map((q) => {
      const cpu = process.cpuUsage();
      const start = performance.now();
      const top = rank(q.text);
      times.push(performance.now() - start);
      cpuTimes.push(cpuMs(cpu));
      return top;
    });
  }
  return { tops, times, cpuTimes };
}

/**
 * Median time to re-list one server of 50 tools in the big index: 50 of its tools copied under a server of their own
 * are added once, then replaced by themselves with a changed description, as a server's `tools/list_changed` would.
 */
function timedUpdate(
  index: ToolIndex,
  big: readonly SearchableTool[],
): { serverTools: number; medianMs: number; medianCpuMs: number } {
  const serverId = 'bench-updated-server';
  const list = big.slice(0, 50).map((tool) => ({ ...tool, serverId, serverName: serverId }));
  index.upsertServer(serverId, list);
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (let i = 0; i < 21; i++) {
    const next = list.map((tool) => ({ ...tool, description: `${tool.description} (v${i})` }));
    const cpu = process.cpuUsage();
    const start = performance.now();
    index.upsertServer(serverId, next);
    times.push(performance.now() - start);
    cpuTimes.push(cpuMs(cpu));
  }
  index.removeServer(serverId);
  return { serverTools: list.length, medianMs: median(times), medianCpuMs: median(cpuTimes) };
}

// Wall-clock percentiles, and CPU-time ones: on a shared machine a 0.2 ms query is often preempted, which shows in the
// wall-clock p95 but is not the search's doing (the process's CPU time counts all its threads, the GC's included).
const timing = (
  build: { ms: number; cpuMs: number },
  run: { times: readonly number[]; cpuTimes: readonly number[] },
) => ({
  indexBuildMs: build.ms,
  indexBuildCpuMs: round(build.cpuMs),
  queryP50Ms: round(percentile(run.times, 50)),
  queryP95Ms: round(percentile(run.times, 95)),
  queryCpuP50Ms: round(percentile(run.cpuTimes, 50)),
  queryCpuP95Ms: round(percentile(run.cpuTimes, 95)),
});

const tools = readTools(values.tools);
const queries = readQueries(values.queries);

// The app's search.
const app = timedBuild(() => buildAppIndex(tools));
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
  ...timing(app, appRun),
  ...appQuality,
  baselineMinisearchDefaults: { ...timing(plain, plainRun), ...plainQuality },
  baselineOkapi: { ...timing(okapi, okapiRun), ...okapiQuality },
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
  const built = timedBuild(() => buildAppIndex(big));
  const bigScope = scopeOf(big);
  const bigRun = timedQueries(queries, (text) =>
    built.value.search(text, { scope: bigScope, limit: k }).matches.map((m) => m.modelName),
  );
  // A chunked build as the page would run it: the longest stretch without yielding is what a user could feel.
  const chunkSize = Math.max(1, Number(values.chunk));
  const chunks: number[] = [];
  let chunkedCpuMs = 0;
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  const start = last;
  await buildIndexInChunks(big, {
    chunkSize,
    yield: async () => {
      chunks.push(performance.now() - last);
      chunkedCpuMs += cpuMs(lastCpu);
      await new Promise<void>((resolve) => setImmediate(resolve));
      last = performance.now();
      lastCpu = process.cpuUsage();
    },
  });
  chunks.push(performance.now() - last);
  chunkedCpuMs += cpuMs(lastCpu);
  const chunkedTotalMs = performance.now() - start;
  const update = timedUpdate(built.value, big);
  const heap = indexHeap(big, queries, k);
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
  // And plain Okapi BM25 at this size: the floor a build of the same text could reach.
  const bigOkapi = timedBuild(() => createOkapi(big));
  const bigOkapiRun = timedQueries(queries, (text) => bigOkapi.value(text, k).map(String));
  summary.replicated = {
    tools: big.length,
    servers: new Set(big.map((t) => t.serverId)).size,
    ...timing(built, bigRun),
    baselineMinisearchDefaults: timing(bigPlain, bigPlainRun),
    baselineOkapi: timing(bigOkapi, bigOkapiRun),
    buildRatioVsOkapi: ratio(built.ms, bigOkapi.ms),
    firstBuildMs: built.coldMs,
    chunkedBuild: {
      chunkSize,
      chunks: chunks.length,
      longestChunkMs: round(Math.max(...chunks)),
      medianChunkMs: median(chunks),
      totalMs: round(chunkedTotalMs),
      ratioToOneShotBuild: ratio(chunkedTotalMs, built.ms),
      cpuMsInChunks: round(chunkedCpuMs),
      cpuRatioToOneShotBuild: ratio(chunkedCpuMs, built.cpuMs),
    },
    serverUpdate: update,
    heap,
  };
}

console.error(JSON.stringify(summary, null, 2));
