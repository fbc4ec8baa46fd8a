import type { WeightedTerm } from './bm25-index';
import { documentTerms, type ToolDocument } from './tool-document';

/** What the feedback pass of a search needs to know. */
export interface FeedbackOptions {
  /** Terms added (0: no feedback pass). */
  readonly terms: number;
  /** Their weight relative to the query's own words. */
  readonly weight: number;
}

/** The query word all feedback terms count for: a tool covers them as one word, so they cannot outvote the query. */
export const FEEDBACK_SOURCE = '\u0000feedback';

/**
 * Pseudo-relevance feedback: the terms the best first-pass matches share, weighted by how well each match scored and
 * how rare the term is; the query's own terms are left out. A general method (Rocchio, RM3): the request's words
 * find one right tool, whose own words then find its siblings, in whatever words their server describes them.
 */
export function feedbackTerms(
  top: readonly { doc: ToolDocument; score: number }[],
  queryTerms: ReadonlySet<string>,
  idf: (term: string) => number,
  options: FeedbackOptions,
): WeightedTerm[] {
  const weights = new Map<string, number>();
  const best = top[0]?.score || 1;
  for (const { doc, score } of top) {
    const [name = [], , description = []] = documentTerms(doc);
    const words = new Set([...name, ...description]);
    for (const term of words) {
      if (queryTerms.has(term)) continue;
      weights.set(term, (weights.get(term) ?? 0) + (score / best) * idf(term));
    }
  }
  const chosen = [...weights].sort((a, b) => b[1] - a[1]).slice(0, options.terms);
  const max = chosen[0]?.[1] || 1;
  return chosen.map(([term, w]) => ({ term, weight: (options.weight * w) / max, source: FEEDBACK_SOURCE }));
}
