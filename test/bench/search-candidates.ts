// npx tsx test/bench/search-candidates.ts [--data ../shared/data/toolsearch] [--only label]
// The ranking candidates of issue #23, each measured the same way: LiveMCPBench dev recall@5 and allGold@5, and
// MetaTool recall@5 on both halves of its tools (sorted ids, even and odd). A candidate is kept only when it wins on
// dev and on both MetaTool halves; the README's table is this script's output.
import { parseArgs } from 'node:util';
import { DEFAULT_TUNING, type IndexTuning } from '../../src/search/tool-index';
import { readQueries, readTools, type BenchQuery } from './dataset';
import { rankWithApp } from './evaluate';
import { quality } from './metrics';

const { values } = parseArgs({
  options: { data: { type: 'string', default: '../shared/data/toolsearch' }, only: { type: 'string' } },
});
const live = {
  tools: readTools(`${values.data}/livemcpbench/tools.json`),
  queries: readQueries(`${values.data}/livemcpbench/queries.dev.json`),
};
const meta = {
  tools: readTools(`${values.data}/metatool/tools.json`),
  queries: readQueries(`${values.data}/metatool/queries.json`),
};
const sortedIds = meta.tools.map((t) => `${t.serverName}/${t.toolName}`).sort();
const isEven = new Map(sortedIds.map((id, i) => [id, i % 2 === 0]));

/** The candidates: a label and the change to the default ranking. */
export const CANDIDATES: readonly [string, Partial<IndexTuning>][] = [
  ['default', {}],
  // Field weights and BM25 knobs: the best of 60 random settings scored on dev + the even MetaTool half.
  [
    'field weights learned on dev + even half',
    { boosts: { name: 1, server: 1, description: 1, params: 0.25 }, bm25: { k: 1.2, b: 1, d: 0.25 } },
  ],
  ['no input-schema field', { boosts: { ...DEFAULT_TUNING.boosts, params: 0 } }],
  ['input-schema field at full weight', { boosts: { ...DEFAULT_TUNING.boosts, params: 1.5 } }],
  ['no server-name field', { boosts: { ...DEFAULT_TUNING.boosts, server: 0 } }],
  ['server-name field x2', { boosts: { ...DEFAULT_TUNING.boosts, server: 1 } }],
  ['expansion capped by IDF (df <= 20%)', { relatedMaxShare: 0.2 }],
  ['expansion capped by IDF (df <= 5%)', { relatedMaxShare: 0.05 }],
  ['feedback 5 terms x0.2', { feedbackTerms: 5, feedbackWeight: 0.2 }],
  ['feedback 10 terms x0.3', { feedbackTerms: 10, feedbackWeight: 0.3 }],
  ['feedback 10 terms x0.3, 1 doc', { feedbackTerms: 10, feedbackWeight: 0.3, feedbackDocs: 1 }],
  ['query-term frequency x0.5', { repeatWeight: 0.5 }],
  ['query-term frequency x1', { repeatWeight: 1 }],
  ['coordination 0.25', { coordination: 0.25 }],
  ['coordination 0.75', { coordination: 0.75 }],
  ['server relevance x0.25', { serverWeight: 0.25 }],
  ['server relevance x0.75', { serverWeight: 0.75 }],
  ['server relevance from its best 2', { serverTop: 2 }],
  ['server relevance from its best 5', { serverTop: 5 }],
];

function recallOn(tops: readonly string[][], keep: (q: BenchQuery) => boolean): number | undefined {
  const kept = meta.queries.flatMap((q, i) => (keep(q) ? [[q, tops[i]!] as const] : []));
  return quality(
    kept.map(([q]) => q),
    kept.map(([, top]) => top),
  ).recallAt5;
}

for (const [label, change] of CANDIDATES) {
  if (values.only && !label.includes(values.only)) continue;
  const tuning: IndexTuning = { ...DEFAULT_TUNING, ...change };
  const dev = quality(live.queries, rankWithApp(live.tools, live.queries, 10, tuning));
  const metaTops = rankWithApp(meta.tools, meta.queries, 10, tuning);
  const gold = (q: BenchQuery): string => q.expectedTools[0]?.[0] ?? '';
  console.log(
    `| ${label} | ${dev.recallAt5} | ${dev.allGoldAt5} | ${recallOn(metaTops, () => true)} | ` +
      `${recallOn(metaTops, (q) => isEven.get(gold(q)) === true)} | ${recallOn(metaTops, (q) => isEven.get(gold(q)) === false)} |`,
  );
}
