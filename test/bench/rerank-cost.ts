// npx tsx test/bench/rerank-cost.ts [--data ../shared/data/toolsearch] [--rounds 5] [--one-server]
// What rounds 2 (term proximity + query-term frequency), 3 (catalog co-occurrence), 4 (semantic re-ranking) and 7
// (prerequisite tools) of issue #23 cost a query at 10,000 tools: CPU time per query (median, p95) of the default
// ranking beside the rankings before each round, in one process, interleaved by round.
import { parseArgs } from 'node:util';
import { createToolIndex, DEFAULT_TUNING, type IndexTuning } from '../../src/search/tool-index';
import { readQueries, replicateTools } from './dataset';
import { appWordVectors, groupByServer, scopeOf } from './evaluate';
import { percentile } from './metrics';
import { BEFORE_ROUND_2, BEFORE_ROUND_3, BEFORE_ROUND_4, BEFORE_ROUND_7 } from './round-baselines';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '../shared/data/toolsearch' },
    rounds: { type: 'string', default: '5' },
    'one-server': { type: 'boolean', default: false },
  },
});
const replicated = replicateTools(`${values.data}/livemcpbench/tools.json`, 10_000);
// --one-server: the same 10,000 tools as one server's (the worst case for work done per server, e.g. prerequisites).
const tools = values['one-server']
  ? replicated.map((tool) => ({ ...tool, serverId: 'one', serverName: 'One', toolName: tool.modelName }))
  : replicated;
const queries = readQueries(`${values.data}/livemcpbench/queries.dev.json`);
const scope = scopeOf(tools);
const variants: Record<string, IndexTuning> = {
  'before round 2': BEFORE_ROUND_2,
  'before round 3': BEFORE_ROUND_3,
  'before round 4': BEFORE_ROUND_4,
  'before round 7': BEFORE_ROUND_7,
  default: DEFAULT_TUNING,
};
const indexes = Object.entries(variants).map(([label, tuning]) => {
  const index = createToolIndex(tuning);
  index.setWordVectors(appWordVectors());
  for (const [serverId, list] of groupByServer(tools)) index.upsertServer(serverId, list);
  return { label, index, times: [] as number[] };
});
for (let round = 0; round < Number(values.rounds); round++) {
  for (const variant of indexes) {
    for (const query of queries) {
      const start = process.cpuUsage();
      variant.index.search(query.text, { scope, limit: 10 });
      const used = process.cpuUsage(start);
      variant.times.push((used.user + used.system) / 1000);
    }
  }
}
// The first query after a catalog change (one server re-listed): semantic re-ranking takes its tool vectors and the
// catalog's mean direction again then, which the steady-state figures above do not show.
const [firstServer, firstTools] = [...groupByServer(tools)][0]!;
const afterChange = indexes.map(({ index }) =>
  Array.from({ length: 11 }, (_, i) => {
    index.upsertServer(
      firstServer,
      firstTools.map((tool) => ({ ...tool, description: `${tool.description} (v${i})` })),
    );
    const start = process.cpuUsage();
    index.search(queries[i % queries.length]!.text, { scope, limit: 10 });
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  }),
);
const base = percentile(indexes[0]!.times, 50);
indexes.forEach(({ label, times }, i) => {
  const p50 = percentile(times, 50);
  console.log(
    `${label}: query CPU p50 ${p50.toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms (p50 ${(p50 / base).toFixed(2)}x); ` +
      `first query after a server is re-listed: median ${percentile(afterChange[i]!, 50).toFixed(2)} ms`,
  );
});
