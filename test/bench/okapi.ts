// A plain Okapi BM25 (k1 = 1.2, b = 0.75) over one text per tool, as the data README describes its reference
// numbers: name, name with "_" as spaces, description, parameter names and descriptions; lowercase words, nothing else.
import { parameterText, type SearchableTool } from '../../src/search/tool-document';

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Ranks tools for a query with plain Okapi BM25; returns tool indexes, best first. */
export function createOkapi(
  tools: readonly SearchableTool[],
  k1 = 1.2,
  b = 0.75,
): (query: string, k: number) => number[] {
  const docs = tools.map((t) =>
    words(`${t.toolName} ${t.toolName.replace(/_/g, ' ')} ${t.description} ${parameterText(t.definition)}`),
  );
  const avgLength = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, docs.length);
  const postings = new Map<string, Map<number, number>>();
  docs.forEach((doc, id) => {
    for (const word of doc) {
      const list = postings.get(word) ?? new Map<number, number>();
      list.set(id, (list.get(id) ?? 0) + 1);
      postings.set(word, list);
    }
  });
  return (query, k) => {
    const scores = new Map<number, number>();
    for (const word of new Set(words(query))) {
      const list = postings.get(word);
      if (!list) continue;
      const idf = Math.log(1 + (docs.length - list.size + 0.5) / (list.size + 0.5));
      for (const [id, tf] of list) {
        const norm = tf + k1 * (1 - b + (b * (docs[id]?.length ?? 0)) / avgLength);
        scores.set(id, (scores.get(id) ?? 0) + (idf * tf * (k1 + 1)) / norm);
      }
    }
    return [...scores]
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, k)
      .map(([id]) => id);
  };
}
