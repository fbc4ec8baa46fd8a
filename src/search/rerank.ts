// Term proximity (issue #23, round 2): a re-ranking of the best few tools by how many of the query's word pairs stand
// together in the tool's name or description ("bar chart", "stock price"); off at weight 0.
import { tokenize } from './tokenize';
import type { ToolDocument } from './tool-document';

/** How many of the best tools a re-ranking signal looks at. */
export const RERANK_DEPTH = 15;
/** Characters of a description read for proximity (the first ones say what the tool does; the rest costs time). */
const PROXIMITY_CHARS = 1_000;

/** The pairs of query words next to each other (stop words and request words already gone), both orders. */
export function queryPairs(ordered: readonly string[]): Set<string> {
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < ordered.length; i++) {
    const [a, b] = [ordered[i]!, ordered[i + 1]!];
    if (a !== b) pairs.add(`${a} ${b}`).add(`${b} ${a}`);
  }
  return pairs;
}

/** Term proximity: the share of the query's word pairs that stand within two words of each other in the tool's text. */
export function proximityShare(pairs: ReadonlySet<string>, doc: ToolDocument): number {
  if (pairs.size === 0) return 0;
  const tokens = [...tokenize(doc.name), ...tokenize(doc.description.slice(0, PROXIMITY_CHARS))];
  const found = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    for (let j = i + 1; j <= i + 2 && j < tokens.length; j++) {
      const pair = `${tokens[i]} ${tokens[j]}`;
      if (pairs.has(pair)) found.add(pair);
    }
  }
  // Both orders of a pair are in `pairs`; a pair found either way counts once.
  return Math.min(1, found.size / (pairs.size / 2));
}

/** Adds `weight × signal` to the best RERANK_DEPTH scores and sorts again; the rest keep their order below. */
export function rerankTop<T extends { doc: ToolDocument; score: number }>(
  ranked: T[],
  weight: number,
  signal: (doc: ToolDocument) => number,
): T[] {
  if (weight === 0 || ranked.length === 0) return ranked;
  const top = ranked.slice(0, RERANK_DEPTH);
  for (const entry of top) entry.score += weight * signal(entry.doc);
  top.sort((a, b) => b.score - a.score || a.doc.id - b.doc.id);
  return [...top, ...ranked.slice(RERANK_DEPTH)];
}
