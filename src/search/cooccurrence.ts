// Catalog co-occurrence (issue #23, round 3): a query word also searches, at a lower weight, the words that the tools
// holding it share far more often than tools in general do ("kanban" → swimlane in a catalog whose kanban tools say
// so). Learned at search time from every indexed tool of the person's catalog (not only those in the search's scope);
// no word list.
import type { QueryTerm } from './query-terms';

/** What the expansion reads from the index. */
export interface CooccurrenceSource {
  readonly size: number;
  documentFrequency(term: string): number;
  cooccurring(term: string, maxDf: number, top: number): [string, number][];
}

/** How the expansion is bounded. */
export interface CooccurrenceOptions {
  /** Words brought per query word (0: off). */
  readonly perWord: number;
  /** Weight of a brought word held by all the tools of its query word (scaled by the share that hold it). */
  readonly weight: number;
  /** Only query words held by at most this share of the tools (and by 2 or more). */
  readonly maxShare: number;
  /** Only the rarest this many query words bring words (speed on long requests). */
  readonly maxWords: number;
  /** At most this many brought words in all, the strongest. */
  readonly maxTerms: number;
}

/** Adds to `terms` the words that co-occur with its own words in the index, as related terms of those words. */
export function addCooccurringTerms(
  terms: Map<string, QueryTerm>,
  index: CooccurrenceSource,
  options: CooccurrenceOptions,
): void {
  if (options.perWord <= 0) return;
  const maxDf = Math.max(2, options.maxShare * index.size);
  const words: [string, number][] = [];
  for (const [term, { kind }] of terms) {
    if (kind !== 'own') continue;
    const df = index.documentFrequency(term);
    if (df >= 2 && df <= maxDf) words.push([term, df]);
  }
  words.sort((a, b) => a[1] - b[1]);
  const brought = new Map<string, QueryTerm>();
  for (const [term] of words.slice(0, options.maxWords)) {
    for (const [other, share] of index.cooccurring(term, maxDf, options.perWord)) {
      const weight = options.weight * share;
      if (terms.has(other) || (brought.get(other)?.weight ?? 0) >= weight) continue;
      brought.set(other, { weight, source: term, kind: 'related' });
    }
  }
  const strongest = [...brought].sort((a, b) => b[1].weight - a[1].weight).slice(0, options.maxTerms);
  for (const [other, term] of strongest) terms.set(other, term);
}
