// npx tsx test/bench/association-candidates.ts [--data ../shared/data/toolsearch]
// Issue #23, round 3: word associations learned from MetaTool's labelled requests, measured honestly. Each MetaTool
// half (tools sorted by id, even and odd) is ranked with associations learned from the OTHER half's requests only;
// LiveMCPBench dev (another catalog, never learned from) with associations learned from all MetaTool requests.
// +/− count the queries whose gold tool entered or left the top 5 against the default ranking, in the same run.
import { parseArgs } from 'node:util';
import { DEFAULT_TUNING, type IndexTuning } from '../../src/search/tool-index';
import { readQueries, readTools, toolId, type BenchQuery } from './dataset';
import { rankWithApp } from './evaluate';
import { LEARN_DEFAULTS, learnAssociations, type LearnOptions } from './learn-associations';
import { quality, recallAt } from './metrics';

const { values } = parseArgs({ options: { data: { type: 'string', default: '../shared/data/toolsearch' } } });
const live = {
  tools: readTools(`${values.data}/livemcpbench/tools.json`),
  queries: readQueries(`${values.data}/livemcpbench/queries.dev.json`),
};
const meta = {
  tools: readTools(`${values.data}/metatool/tools.json`),
  queries: readQueries(`${values.data}/metatool/queries.json`),
};
const sortedIds = meta.tools.map(toolId).sort();
const isEven = new Map(sortedIds.map((id, i) => [id, i % 2 === 0]));
const gold = (q: BenchQuery): string => q.expectedTools[0]?.[0] ?? '';
const half = (even: boolean) => meta.queries.filter((q) => isEven.get(gold(q)) === even);
const halves = { even: half(true), odd: half(false) };

function hits(queries: readonly BenchQuery[], tuning: IndexTuning, tools = meta.tools): number[] {
  return rankWithApp(tools, queries, 10, tuning).map((top, i) => recallAt(queries[i]!, top, 5));
}
const mean = (xs: readonly number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 1000) / 1000;
function delta(now: readonly number[], before: readonly number[]): string {
  let gained = 0;
  let lost = 0;
  now.forEach((h, i) => {
    if (h > before[i]!) gained++;
    if (h < before[i]!) lost++;
  });
  return `+${gained}/−${lost}`;
}

const base = { even: hits(halves.even, DEFAULT_TUNING), odd: hits(halves.odd, DEFAULT_TUNING) };
const baseDev = quality(live.queries, rankWithApp(live.tools, live.queries, 10, DEFAULT_TUNING));
console.log(`| default | ${baseDev.recallAt5} | ${baseDev.allGoldAt5} | ${mean(base.even)} | ${mean(base.odd)} |`);

const VARIANTS: readonly [string, Partial<LearnOptions>, number][] = [
  ['learned, tool words in >= 3 tools x0.3', { minToolsWithWord: 3 }, 0.3],
  ['learned, tool words in >= 5 tools x0.3', { minToolsWithWord: 5 }, 0.3],
  ['learned, >= 5 tools, lift 5 conf 0.6 x0.3', { minToolsWithWord: 5, minLift: 5, minConfidence: 0.6 }, 0.3],
  ['learned, >= 3 tools, min 5 query tools x0.15', { minToolsWithWord: 3, minTools: 5 }, 0.15],
];

for (const [label, options, weight] of VARIANTS) {
  const learn = (queries: readonly BenchQuery[]) =>
    learnAssociations(meta.tools, queries, { ...LEARN_DEFAULTS, ...options });
  const tuned = (queries: readonly BenchQuery[]): IndexTuning => ({
    ...DEFAULT_TUNING,
    associations: learn(queries),
    associationWeight: weight,
  });
  const even = hits(halves.even, tuned(halves.odd));
  const odd = hits(halves.odd, tuned(halves.even));
  const all = tuned(meta.queries);
  const dev = quality(live.queries, rankWithApp(live.tools, live.queries, 10, all));
  console.log(
    `| ${label} (${all.associations!.size} words) | ${dev.recallAt5} | ${dev.allGoldAt5} | ` +
      `${mean(even)} (${delta(even, base.even)}) | ${mean(odd)} (${delta(odd, base.odd)}) |`,
  );
}
