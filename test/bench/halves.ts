// Shared by the ranking-candidate scripts of issue #23: MetaTool recall@5 on one half of its tools (sorted by id, even
// or odd), with the queries whose gold tool entered (+) or left (−) the top 5 against a baseline ranking.
import type { IndexTuning } from '../../src/search/tool-index';
import type { BenchQuery, BenchSet } from './dataset';
import { rankWithApp } from './evaluate';
import { quality, recallAt } from './metrics';

const gold = (q: BenchQuery): string => q.expectedTools[0]?.[0] ?? '';

/** Per query of `meta`, whether its gold tool is among the top 5 of `tops` (1 or 0). */
export const hitsOf = (meta: BenchSet, tops: readonly string[][]): number[] =>
  meta.queries.map((q, i) => recallAt(q, tops[i]!, 5));

/** "recall@5 (+gained/−lost)" of one half against the baseline's hits. */
export function halfCell(
  meta: BenchSet,
  isEven: ReadonlyMap<string, boolean>,
  baseline: readonly number[],
  tops: readonly string[][],
  even: boolean,
): string {
  const hits = hitsOf(meta, tops);
  let gained = 0;
  let lost = 0;
  const kept: [BenchQuery, string[]][] = [];
  meta.queries.forEach((q, i) => {
    if (isEven.get(gold(q)) !== even) return;
    kept.push([q, tops[i]!]);
    if (hits[i]! > baseline[i]!) gained++;
    if (hits[i]! < baseline[i]!) lost++;
  });
  const r = quality(
    kept.map(([q]) => q),
    kept.map(([, t]) => t),
  ).recallAt5;
  return `${r} (+${gained}/−${lost})`;
}

/** A group of candidates: the ranking they change, their rows (label, change), and what +/− count against (the base
 * when absent). */
export type CandidateGroup = readonly [
  base: IndexTuning,
  rows: readonly (readonly [string, Partial<IndexTuning>])[],
  against?: IndexTuning,
];

/** Each candidate printed as a README table row: dev recall@5 and allGold@5, MetaTool recall@5, and each MetaTool half
 * with its +/−; `only` keeps the rows whose label holds it. */
export function printCandidateRows(
  sets: { readonly live: BenchSet; readonly meta: BenchSet; readonly isEven: ReadonlyMap<string, boolean> },
  groups: readonly CandidateGroup[],
  only?: string,
): void {
  const { live, meta, isEven } = sets;
  for (const [base, rows, against = base] of groups) {
    const baseline = hitsOf(meta, rankWithApp(meta.tools, meta.queries, 10, against));
    for (const [label, change] of rows) {
      if (only && !label.includes(only)) continue;
      const tuning: IndexTuning = { ...base, ...change };
      const dev = quality(live.queries, rankWithApp(live.tools, live.queries, 10, tuning));
      const tops = rankWithApp(meta.tools, meta.queries, 10, tuning);
      console.log(
        `| ${label} | ${dev.recallAt5} | ${dev.allGoldAt5} | ${quality(meta.queries, tops).recallAt5} | ` +
          `${halfCell(meta, isEven, baseline, tops, true)} | ${halfCell(meta, isEven, baseline, tops, false)} |`,
      );
    }
  }
}
