// npx tsx test/bench/tune-search.ts [--data ../shared/data/toolsearch] [--trials 200] [--seed 1]
// How DEFAULT_TUNING (src/search/ranking.ts) was chosen: a random search over the ranking knobs, scored on the dev
// data (LiveMCPBench recall@5 + allGold@5, plus twice MetaTool recall@5 on a quarter of its queries, for speed).
// Prints the best settings; the defaults were picked from a region where neighbours score alike, not the single best.
import { parseArgs } from 'node:util';
import { DEFAULT_TUNING, type IndexTuning } from '../../src/search/tool-index';
import { readQueries, readTools } from './dataset';
import { evaluate } from './evaluate';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '../shared/data/toolsearch' },
    trials: { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
  },
});
const live = {
  tools: readTools(`${values.data}/livemcpbench/tools.json`),
  queries: readQueries(`${values.data}/livemcpbench/queries.dev.json`),
};
const meta = {
  tools: readTools(`${values.data}/metatool/tools.json`),
  queries: readQueries(`${values.data}/metatool/queries.json`).filter((_, i) => i % 4 === 0),
};

let seed = Math.max(1, Number(values.seed));
const random = (): number => {
  seed = (seed * 16807) % 2147483647;
  return seed / 2147483647;
};
const pick = <T>(options: readonly T[]): T => options[Math.floor(random() * options.length)]!;

function score(tuning: IndexTuning): { objective: number; line: string } {
  const a = evaluate(live.tools, live.queries, tuning);
  const b = evaluate(meta.tools, meta.queries, tuning);
  const objective = (a.recallAt5 ?? 0) + (a.allGoldAt5 ?? 0) + 2 * (b.recallAt5 ?? 0);
  return { objective, line: `live r@5 ${a.recallAt5} allGold@5 ${a.allGoldAt5} | metatool r@5 ${b.recallAt5}` };
}

const rows = [{ ...score(DEFAULT_TUNING), tuning: DEFAULT_TUNING, label: 'default' }];
for (let trial = 0; trial < Number(values.trials); trial++) {
  const tuning: IndexTuning = {
    ...DEFAULT_TUNING,
    boosts: {
      name: pick([1, 1.5, 2, 3, 4]),
      server: pick([0.25, 0.5, 1]),
      description: pick([0.5, 0.75, 1, 1.5]),
      params: pick([0.1, 0.25, 0.5, 0.75]),
    },
    bm25: { k: pick([0.6, 0.9, 1.2, 1.6, 2.2]), b: pick([0.5, 0.75, 0.9, 1]), d: pick([0, 0.25, 0.5]) },
    coordination: pick([0.5, 0.75, 1, 1.25]),
    serverWeight: pick([0, 0.15, 0.25, 0.5]),
    serverTop: pick([1, 2, 3]),
    serverDecay: pick([1, 0.9, 0.8]),
    relatedWeight: pick([0, 0.3, 0.4, 0.5, 0.6]),
  };
  rows.push({ ...score(tuning), tuning, label: `trial ${trial}` });
}
rows.sort((x, y) => y.objective - x.objective);
for (const row of rows.slice(0, 10)) {
  const { dropWords: _dropWords, ...knobs } = row.tuning;
  console.log(`${row.objective.toFixed(3)} ${row.label}: ${row.line}\n  ${JSON.stringify(knobs)}`);
}
