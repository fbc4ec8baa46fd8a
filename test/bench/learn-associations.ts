// Word associations learned from labelled requests (issue #23): which words of a tool's name and description go with
// which words of the requests that needed it. Query word w → tool word v when the tools that w's requests needed
// share v far more often than tools in general do (lift), over requests for several distinct tools, so that an
// association is about words, not about one tool.
import type { WordAssociations } from '../../src/search/query-terms';
import { queryTerms } from '../../src/search/query-terms';
import { tokenize } from '../../src/search/tokenize';
import type { SearchableTool } from '../../src/search/tool-document';
import type { BenchQuery } from './dataset';
import { toolId } from './dataset';

/** How strict the learning is. */
export interface LearnOptions {
  /** A query word must occur in requests for at least this many distinct tools. */
  readonly minTools: number;
  /** And in at least this many requests. */
  readonly minRequests: number;
  /** P(v in the needed tool | w in the request) at least this. */
  readonly minConfidence: number;
  /** P(v | w) / P(v) at least this. */
  readonly minLift: number;
  /** At most this many associated words per query word (the strongest). */
  readonly perWord: number;
  /** An associated word must stand in at least this many tools of the learning catalog (a word, not a tool's name). */
  readonly minToolsWithWord: number;
}

export const LEARN_DEFAULTS: LearnOptions = {
  minTools: 3,
  minRequests: 5,
  minConfidence: 0.4,
  minLift: 3,
  perWord: 4,
  minToolsWithWord: 1,
};

/** Learns associations from requests and the tools they needed (each request's first gold tool). */
export function learnAssociations(
  tools: readonly SearchableTool[],
  queries: readonly BenchQuery[],
  options: LearnOptions = LEARN_DEFAULTS,
): WordAssociations {
  const toolWords = new Map(
    tools.map((t) => [toolId(t), new Set([...tokenize(t.toolName), ...tokenize(t.description)])] as const),
  );
  const withWord = new Map<string, number>();
  const toolsOfWord = new Map<string, Set<string>>();
  const pair = new Map<string, Map<string, number>>();
  const background = new Map<string, number>();
  let n = 0;
  for (const q of queries) {
    const id = q.expectedTools[0]?.[0];
    const words = id === undefined ? undefined : toolWords.get(id);
    if (!words || id === undefined) continue;
    n++;
    for (const v of words) background.set(v, (background.get(v) ?? 0) + 1);
    const own = [...queryTerms(q.text)].filter(([, t]) => t.kind === 'own').map(([w]) => w);
    for (const w of new Set(own)) {
      withWord.set(w, (withWord.get(w) ?? 0) + 1);
      const seen = toolsOfWord.get(w) ?? new Set();
      seen.add(id);
      toolsOfWord.set(w, seen);
      const row = pair.get(w) ?? new Map<string, number>();
      for (const v of words) row.set(v, (row.get(v) ?? 0) + 1);
      pair.set(w, row);
    }
  }
  const toolsWithWord = new Map<string, number>();
  for (const words of toolWords.values()) for (const v of words) toolsWithWord.set(v, (toolsWithWord.get(v) ?? 0) + 1);
  const out = new Map<string, (readonly [string, number])[]>();
  for (const [w, row] of pair) {
    const count = withWord.get(w)!;
    if (count < options.minRequests || toolsOfWord.get(w)!.size < options.minTools) continue;
    const chosen: [string, number, number][] = [];
    for (const [v, c] of row) {
      if (v === w || toolsWithWord.get(v)! < options.minToolsWithWord) continue;
      const confidence = c / count;
      const lift = confidence / (background.get(v)! / n);
      if (confidence >= options.minConfidence && lift >= options.minLift)
        chosen.push([v, confidence, confidence * Math.log(lift)]);
    }
    chosen.sort((a, b) => b[2] - a[2] || (a[0] < b[0] ? -1 : 1));
    if (chosen.length > 0)
      out.set(
        w,
        chosen.slice(0, options.perWord).map(([v, confidence]) => [v, confidence] as const),
      );
  }
  return out;
}
