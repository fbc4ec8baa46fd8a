import type { Bm25Params, WeightedTerm } from './bm25-index';
import { GENERIC_WORDS, REQUEST_WORDS, type QueryTerm } from './query-terms';
import type { ToolDocument } from './tool-document';

/** Ranking knobs, tuned on the dev data (test/bench/tune-search.ts); the defaults are the tuned values. */
export interface IndexTuning {
  readonly boosts: {
    readonly name: number;
    readonly server: number;
    readonly description: number;
    readonly params: number;
  };
  readonly bm25: Bm25Params;
  /** Exponent on the number of query words a tool covers (a related word counts for the word it stands for). */
  readonly coordination: number;
  /** Weight of the server's relevance (its best tools' scores summed) added to each of its tools. */
  readonly serverWeight: number;
  /** How many of a server's best tools make up its relevance. */
  readonly serverTop: number;
  /** Each further tool of the same server is scored down by this factor, so several needs of a request show up. */
  readonly serverDecay: number;
  /** Query words ignored unless nothing else is left (index form). */
  readonly dropWords: ReadonlySet<string>;
  /** Weight of words related to the query's words (see related-terms.ts); 0 turns the expansion off. */
  readonly relatedWeight: number;
  /** At most this many of the query's own words are searched: the rarest in the index (speed on long messages). */
  readonly maxQueryTerms: number;
  /** At most this many related words are searched, again the rarest. */
  readonly maxRelatedTerms: number;
  /** Query words that qualify a request rather than name a need (see query-terms.ts), in index form. */
  readonly genericWords: ReadonlySet<string>;
  /** Their weight; 1 treats them like any other word. */
  readonly genericWeight: number;
  /** Whether a specific word also searches for its broader words (broader-terms.ts). */
  readonly broaderWords: boolean;
  /** A related word held by more than this share of the tools is not searched: common words say little (IDF cap). */
  readonly relatedMaxShare: number;
  /** Pseudo-relevance feedback: terms taken from the best first-pass matches (0: off), their weight, and how many. */
  readonly feedbackTerms: number;
  readonly feedbackWeight: number;
  readonly feedbackDocs: number;
  /** Query-term frequency: extra weight of a repeated request word, times the log of its count (0: off). */
  readonly repeatWeight: number;
  /** Term proximity: weight of the share of query word pairs that stand together in a tool's name or description. */
  readonly proximityWeight: number;
  /** Catalog co-occurrence: words searched per query word, from the tools that hold it (0: off). */
  readonly cooccurrenceTerms: number;
  /** Their weight at full strength (the share of the word's tools that hold them). */
  readonly cooccurrenceWeight: number;
  /** Only for query words held by at most this share of the tools. */
  readonly cooccurrenceMaxShare: number;
  /** Only the rarest this many query words bring co-occurring words. */
  readonly cooccurrenceWords: number;
  /** At most this many co-occurring words per query, the strongest. */
  readonly cooccurrenceMax: number;
  /** Semantic re-ranking by word vectors (semantic.ts), once the index has them: weight of the closeness (0: off). */
  readonly semanticWeight: number;
  /** Prerequisite tools (prerequisites.ts): the share of a best tool's score its input suppliers rise to (0: off). */
  readonly prerequisiteWeight: number;
  /** How many of the best tools have their prerequisites lifted. */
  readonly prerequisiteFrom: number;
  /** At most this many prerequisites of each, the best matches of the request first. */
  readonly prerequisitesPerTool: number;
}

/** The tuned ranking (see test/bench/tune-search.ts and the numbers in the bench summary). */
export const DEFAULT_TUNING: IndexTuning = {
  boosts: { name: 1.5, server: 0.5, description: 0.75, params: 0.75 },
  bm25: { k: 2.2, b: 1, d: 0.25 },
  coordination: 0.5,
  serverWeight: 0.5,
  serverTop: 3,
  serverDecay: 0.9,
  dropWords: REQUEST_WORDS,
  relatedWeight: 0.6,
  maxQueryTerms: 24,
  maxRelatedTerms: 24,
  genericWords: GENERIC_WORDS,
  genericWeight: 0.5,
  broaderWords: true,
  relatedMaxShare: 1,
  feedbackTerms: 0,
  feedbackWeight: 0.3,
  feedbackDocs: 3,
  // Kept in round 2 (README table): together they win on dev and on both MetaTool halves.
  repeatWeight: 0.5,
  proximityWeight: 0.5,
  // Kept in round 3 (README table): wins on both MetaTool halves; on dev by a hair (+2/−2 queries).
  cooccurrenceTerms: 3,
  cooccurrenceWeight: 0.3,
  cooccurrenceMaxShare: 0.05,
  cooccurrenceWords: 6,
  cooccurrenceMax: 10,
  // Round 4 (README table): word vectors' closeness re-ranks the best 20.
  semanticWeight: 0.15,
  // Round 7 (README table): the tools that supply a best tool's inputs rise to 0.65 of its score.
  prerequisiteWeight: 0.65,
  prerequisiteFrom: 3,
  prerequisitesPerTool: 3,
};

/** The terms worth searching: only indexed ones, and on long queries the rarest (common terms cost most, say least). */
export function selectTerms(
  terms: ReadonlyMap<string, QueryTerm>,
  documentFrequency: (term: string) => number,
  tuning: IndexTuning,
  documents = Infinity,
): WeightedTerm[] {
  const own: [WeightedTerm, number][] = [];
  const related: [WeightedTerm, number][] = [];
  const maxRelatedDf = tuning.relatedMaxShare * documents;
  for (const [term, { weight, source, kind }] of terms) {
    const df = documentFrequency(term);
    if (kind === 'related' && df > maxRelatedDf) continue;
    // Generic words are searched with the related ones: on a long request they must not crowd out the words of the need.
    if (df > 0) (kind === 'own' ? own : related).push([{ term, weight, source }, df]);
  }
  const rarest = (list: [WeightedTerm, number][], max: number): WeightedTerm[] =>
    (list.length <= max ? list : list.sort((a, b) => a[1] - b[1]).slice(0, max)).map(([term]) => term);
  return [...rarest(own, tuning.maxQueryTerms), ...rarest(related, tuning.maxRelatedTerms)];
}

/** A tool's BM25 score (summed over terms and fields) times its coordination factor. */
export interface RankInput {
  readonly doc: ToolDocument;
  readonly score: number;
}

/** The coordination factor by number of query words covered (index 0..words): covered ** coordination. */
export function coordinationTable(words: number, tuning: IndexTuning): Float64Array {
  return Float64Array.from({ length: words + 1 }, (_, covered) => Math.max(1, covered) ** tuning.coordination);
}

/** The `count` slots with the highest values (in no particular order), by a selection in linear time. */
export function bestSlots(slots: readonly number[], values: Float64Array, count: number): number[] {
  if (slots.length <= count) return [...slots];
  const sample = new Float64Array(slots.length);
  for (let i = 0; i < slots.length; i++) sample[i] = values[slots[i]!]!;
  // Quickselect for the value of rank `count` (descending), then everything at or above it.
  let lo = 0;
  let hi = sample.length - 1;
  const k = count - 1;
  while (lo < hi) {
    const pivot = sample[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (sample[i]! > pivot) i++;
      while (sample[j]! < pivot) j--;
      if (i <= j) {
        const t = sample[i]!;
        sample[i] = sample[j]!;
        sample[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  const threshold = sample[k]!;
  return slots.filter((slot) => values[slot]! >= threshold);
}

/** A server's relevance to a query: the sum of its best `top` tool scores. */
function serverRelevance(scored: readonly { doc: ToolDocument; score: number }[], top: number): Map<string, number> {
  const byServer = new Map<string, number[]>();
  for (const { doc, score } of scored) {
    const list = byServer.get(doc.tool.serverId);
    if (list) list.push(score);
    else byServer.set(doc.tool.serverId, [score]);
  }
  const relevance = new Map<string, number>();
  for (const [serverId, scores] of byServer) {
    const best = scores.length <= top ? scores : scores.sort((a, b) => b - a).slice(0, top);
    relevance.set(
      serverId,
      best.reduce((a, b) => a + b, 0),
    );
  }
  return relevance;
}

/**
 * The final order: BM25 with our coordination (the number of query words covered, a related word counting for the
 * word it stands for), plus the server's relevance, then each further tool of a server scored down a little.
 */
export function rankHits(hits: readonly RankInput[], tuning: IndexTuning): { doc: ToolDocument; score: number }[] {
  if (hits.length === 0) return [];
  const scored = hits.map((hit) => ({ doc: hit.doc, score: hit.score }));
  const relevance = serverRelevance(scored, tuning.serverTop);
  let maxRelevance = 0;
  for (const value of relevance.values()) maxRelevance = Math.max(maxRelevance, value);
  const maxScore = scored.reduce((max, s) => Math.max(max, s.score), 0) || 1;
  const ranked = scored.map(({ doc, score }) => ({
    doc,
    score: score / maxScore + (tuning.serverWeight * (relevance.get(doc.tool.serverId) ?? 0)) / (maxRelevance || 1),
  }));
  const byScore = (a: { doc: ToolDocument; score: number }, b: { doc: ToolDocument; score: number }) =>
    b.score - a.score || a.doc.id - b.doc.id;
  ranked.sort(byScore);
  if (tuning.serverDecay < 1) {
    const seen = new Map<string, number>();
    for (const entry of ranked) {
      const n = seen.get(entry.doc.tool.serverId) ?? 0;
      seen.set(entry.doc.tool.serverId, n + 1);
      entry.score *= tuning.serverDecay ** n;
    }
    ranked.sort(byScore);
  }
  return ranked;
}
