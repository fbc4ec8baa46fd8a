// Retrieval metrics as ../shared/data/toolsearch/README.md defines them, and timing summaries.
import type { BenchQuery } from './dataset';

/** Share of the query's gold entries with an acceptable id among the first k results. */
export function recallAt(query: BenchQuery, top: readonly string[], k: number): number {
  if (query.expectedTools.length === 0) return 0;
  const head = new Set(top.slice(0, k));
  const found = query.expectedTools.filter((entry) => entry.some((id) => head.has(id))).length;
  return found / query.expectedTools.length;
}

/** 1 when every gold entry of the query has an acceptable id among the first k results, else 0. */
export function allGoldAt(query: BenchQuery, top: readonly string[], k: number): number {
  return recallAt(query, top, k) === 1 ? 1 : 0;
}

/** Mean recall@1/5/10 and allGold@5 over a run. */
export function quality(queries: readonly BenchQuery[], tops: readonly (readonly string[])[]): Record<string, number> {
  const mean = (f: (q: BenchQuery, top: readonly string[]) => number): number =>
    queries.length === 0 ? 0 : round(queries.reduce((sum, q, i) => sum + f(q, tops[i] ?? []), 0) / queries.length);
  return {
    recallAt1: mean((q, t) => recallAt(q, t, 1)),
    recallAt5: mean((q, t) => recallAt(q, t, 5)),
    recallAt10: mean((q, t) => recallAt(q, t, 10)),
    allGoldAt5: mean((q, t) => allGoldAt(q, t, 5)),
  };
}

/** The p-th percentile (0..100) of some numbers, nearest-rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

/** A number rounded to 3 decimals, for printing. */
export function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
