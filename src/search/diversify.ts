// Coverage diversification (issue #23, round 3 candidate): a request often has several needs ("read the sheet, plot a
// bar chart, save it"); among the best few tools, each next place goes to the tool that adds most of the request's
// words not yet covered by the tools above it, as well as scoring high (xQuAD-like, with the query's words as aspects).
import type { QueryTerm } from './query-terms';
import { RERANK_DEPTH } from './rerank';
import { tokenize } from './tokenize';
import type { ToolDocument } from './tool-document';

const CHARS = 1_000;

/** The query words (sources) a tool's name, description and parameters hold, directly or by a related word. */
export function coveredWords(terms: ReadonlyMap<string, QueryTerm>, doc: ToolDocument): Set<string> {
  const words = new Set<string>();
  for (const text of [doc.name, doc.description.slice(0, CHARS), doc.params.slice(0, CHARS)]) {
    for (const token of tokenize(text)) {
      const term = terms.get(token);
      if (term) words.add(term.source);
    }
  }
  return words;
}

/** Re-orders the best RERANK_DEPTH: greedily, score plus `weight` × the share of query words the tool newly covers. */
export function diversify<T extends { doc: ToolDocument; score: number }>(
  ranked: T[],
  weight: number,
  terms: ReadonlyMap<string, QueryTerm>,
): T[] {
  if (weight === 0 || ranked.length < 2) return ranked;
  const total = new Set([...terms.values()].map((t) => t.source)).size || 1;
  const pool = ranked.slice(0, RERANK_DEPTH).map((entry) => ({ entry, words: coveredWords(terms, entry.doc) }));
  const seen = new Set<string>();
  const out: T[] = [];
  while (pool.length > 0) {
    let bestIndex = 0;
    let bestValue = -Infinity;
    pool.forEach(({ entry, words }, i) => {
      let fresh = 0;
      for (const word of words) if (!seen.has(word)) fresh++;
      const value = entry.score + (weight * fresh) / total;
      if (value > bestValue) [bestIndex, bestValue] = [i, value];
    });
    const [{ entry, words }] = pool.splice(bestIndex, 1) as [(typeof pool)[number]];
    for (const word of words) seen.add(word);
    out.push(entry);
  }
  return [...out, ...ranked.slice(RERANK_DEPTH)];
}
