// Issue #23, round 11: the features of a learned re-ranker (learning to rank). For each query, the app's full ranking
// (src/search/, default tuning, word vectors loaded) gives its best DEPTH tools; each (query, tool) pair gets features
// the pipeline has or can compute cheaply: per-field BM25 of the query's searched terms, the semantic cosine, the
// share of the query's words (and of their IDF) that the name and the description hold, whether the name is all
// query words, the current rank and score ratio, the server's relevance, the prerequisite flag and length.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Bm25Index } from '../../src/search/bm25-index';
import { addCooccurringTerms } from '../../src/search/cooccurrence';
import { isPrerequisite } from '../../src/search/prerequisites';
import { queryTerms, MAX_QUERY_CHARS } from '../../src/search/query-terms';
import { selectTerms } from '../../src/search/ranking';
import { SemanticScorer } from '../../src/search/semantic';
import { tokenize } from '../../src/search/tokenize';
import { documentTerms, INDEXED_FIELDS, toolDocument, type ToolDocument } from '../../src/search/tool-document';
import { DEFAULT_TUNING, type IndexTuning } from '../../src/search/tool-index';
import { toolId, type BenchQuery, type BenchSet } from './dataset';
import { appWordVectors, buildAppIndex, groupByServer, scopeOf } from './evaluate';

/** How many of the app's best tools are re-ranked. */
export const DEPTH = 30;

/** The features, in the order of each row; `base` (the app's score over its best) is the re-ranker's offset. */
export const FEATURES = [
  'base',
  'inverse rank',
  'bm25 name',
  'bm25 server',
  'bm25 description',
  'bm25 params',
  'semantic cosine',
  'name word share',
  'name idf share',
  'description word share',
  'description idf share',
  'all words covered',
  'name all in query',
  'name share in query',
  'server relevance',
  'server tools in list',
  'prerequisite of a best tool',
  'description length',
  'propagated score',
  'propagated from the best 5',
  'propagated from the best 5 of its server',
] as const;
export const FEATURE_COUNT = FEATURES.length;

/** One query's candidates: ids in the app's order, a row of features each, and which are gold (per gold entry). */
export interface QueryCandidates {
  readonly query: BenchQuery;
  readonly ids: readonly string[];
  readonly features: Float64Array; // ids.length × FEATURE_COUNT
  /** Per candidate, the index of the gold entry it satisfies, or −1. */
  readonly gold: Int8Array;
}

interface DocText {
  readonly name: ReadonlySet<string>;
  readonly nameList: readonly string[];
  readonly description: ReadonlySet<string>;
  readonly descriptionLength: number;
  /** TF-IDF vector of name and description, unit length (for score propagation). */
  readonly vector: ReadonlyMap<string, number>;
}

/** Every candidate of every query of `set`, with its features. */
export function extractCandidates(set: BenchSet, tuning: IndexTuning = DEFAULT_TUNING): QueryCandidates[] {
  const app = buildAppIndex(set.tools, tuning);
  const scope = scopeOf(set.tools);
  // The same documents in the same order as the app's index, so document frequencies and co-occurrence match.
  const docs: ToolDocument[] = [];
  const bm25 = new Bm25Index(INDEXED_FIELDS.length);
  for (const tools of groupByServer(set.tools).values()) {
    for (const tool of tools) {
      const doc = toolDocument(docs.length + 1, tool);
      bm25.add(documentTerms(doc));
      docs.push(doc);
    }
  }
  const slotOf = new Map(docs.map((doc, slot) => [toolId(doc.tool), slot]));
  const n = bm25.size;
  const idf = (term: string): number => {
    const df = bm25.documentFrequency(term);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };
  const semantic = new SemanticScorer(appWordVectors(), {
    size: n,
    documentFrequency: (term) => bm25.documentFrequency(term),
    sample(count) {
      const step = Math.max(1, docs.length / count);
      const out: ToolDocument[] = [];
      for (let i = 0; i < docs.length && out.length < count; i += step) out.push(docs[Math.floor(i)]!);
      return out;
    },
  });
  const texts = docs.map((doc): DocText => {
    const nameList = tokenize(doc.name);
    const description = tokenize(doc.description);
    const counts = new Map<string, number>();
    for (const t of [...nameList, ...description]) counts.set(t, (counts.get(t) ?? 0) + 1);
    const vector = new Map<string, number>();
    let norm = 0;
    for (const [t, c] of counts) {
      const v = (1 + Math.log(c)) * idf(t);
      vector.set(t, v);
      norm += v * v;
    }
    for (const [t, v] of vector) vector.set(t, v / (Math.sqrt(norm) || 1));
    return {
      name: new Set(nameList),
      nameList,
      description: new Set(description),
      descriptionLength: description.length,
      vector,
    };
  });
  const oneHot = INDEXED_FIELDS.map((_, f) => INDEXED_FIELDS.map((__, g) => (f === g ? 1 : 0)));

  return set.queries.map((query) => {
    const text = query.text.slice(0, MAX_QUERY_CHARS);
    const matches = app.search(text, { scope, limit: DEPTH }).matches;
    const ids = matches.map((m) => `${m.serverName}/${m.ref.toolName}`);
    const slots = ids.map((id) => slotOf.get(id)!);
    const all = queryTerms(text, {
      dropWords: tuning.dropWords,
      relatedWeight: tuning.relatedWeight,
      genericWords: tuning.genericWords,
      genericWeight: tuning.genericWeight,
      broaderWords: tuning.broaderWords,
      repeatWeight: tuning.repeatWeight,
    });
    addCooccurringTerms(all, bm25, {
      perWord: tuning.cooccurrenceTerms,
      weight: tuning.cooccurrenceWeight,
      maxShare: tuning.cooccurrenceMaxShare,
      maxWords: tuning.cooccurrenceWords,
      maxTerms: tuning.cooccurrenceMax,
    });
    const terms = selectTerms(all, (t) => bm25.documentFrequency(t), tuning, n);
    const fieldScores = oneHot.map((boosts) => {
      const { scores } = bm25.score(terms, boosts, tuning.bm25);
      return slots.map((slot) => scores[slot] ?? 0);
    });
    const ownWords = [...all].filter(([, t]) => t.kind === 'own').map(([term]) => term);
    const ownIdf = ownWords.reduce((sum, w) => sum + idf(w), 0) || 1;
    const covered = new Set(all.keys());
    const sources = new Set([...all.values()].map((t) => t.source));
    const cosines = semantic.closeness(
      text,
      slots.map((slot) => docs[slot]!),
    );
    const best = matches[0]?.score || 1;
    const ratio = matches.map((m) => m.score / best);
    const bm25Best = Math.max(1e-9, ...slots.map((_, i) => fieldScores.reduce((s, f) => s + f[i]!, 0)));
    // Server relevance over the list: the sum of each server's best 3 ratios, over the largest such sum.
    const byServer = new Map<string, number[]>();
    matches.forEach((m, i) => byServer.set(m.ref.serverId, [...(byServer.get(m.ref.serverId) ?? []), ratio[i]!]));
    const relevance = new Map(
      [...byServer].map(([s, list]) => [
        s,
        list
          .sort((a, b) => b - a)
          .slice(0, 3)
          .reduce((a, b) => a + b, 0),
      ]),
    );
    const maxRelevance = Math.max(1e-9, ...relevance.values());
    const features = new Float64Array(ids.length * FEATURE_COUNT);
    const gold = new Int8Array(ids.length).fill(-1);
    slots.forEach((slot, i) => {
      const doc = docs[slot]!;
      const t = texts[slot]!;
      const share = (held: ReadonlySet<string>, byIdf: boolean): number => {
        if (ownWords.length === 0) return 0;
        let sum = 0;
        for (const w of ownWords) if (held.has(w)) sum += byIdf ? idf(w) : 1;
        return sum / (byIdf ? ownIdf : ownWords.length);
      };
      const heldSources = new Set(
        [...all].filter(([term]) => t.name.has(term) || t.description.has(term)).map(([, q]) => q.source),
      );
      const nameInQuery = t.nameList.filter((w) => covered.has(w)).length;
      // Score propagation: the other tools' scores, each times its TF-IDF cosine with this tool.
      const propagated = [0, 0, 0];
      slots.forEach((other, j) => {
        if (j === i) return;
        let sim = 0;
        for (const [term, v] of texts[other]!.vector) sim += v * (t.vector.get(term) ?? 0);
        propagated[0]! += sim * ratio[j]!;
        if (j < 5) propagated[1]! += sim * ratio[j]!;
        if (j < 5 && docs[other]!.tool.serverId === doc.tool.serverId) propagated[2]! += sim * ratio[j]!;
      });
      const row = [
        ratio[i]!,
        1 / (1 + i),
        ...fieldScores.map((f) => f[i]! / bm25Best),
        cosines[i] ?? 0,
        share(t.name, false),
        share(t.name, true),
        share(t.description, false),
        share(t.description, true),
        heldSources.size / Math.max(1, sources.size),
        t.nameList.length > 0 && nameInQuery === t.nameList.length ? 1 : 0,
        t.nameList.length > 0 ? nameInQuery / t.nameList.length : 0,
        relevance.get(doc.tool.serverId)! / maxRelevance,
        (byServer.get(doc.tool.serverId)!.length - 1) / DEPTH,
        slots
          .slice(0, 3)
          .some(
            (top) => top !== slot && isPrerequisite(docs[top]!, doc) && docs[top]!.tool.serverId === doc.tool.serverId,
          )
          ? 1
          : 0,
        Math.log(1 + t.descriptionLength) / 5,
        ...propagated,
      ];
      features.set(row, i * FEATURE_COUNT);
      gold[i] = query.expectedTools.findIndex((entry) => entry.includes(ids[i]!));
    });
    return { query, ids, features, gold };
  });
}

/** The candidates from `file` when it exists (written by an earlier run), else computed and written there. */
export function cachedCandidates<T extends Record<string, QueryCandidates[]>>(
  file: string | undefined,
  compute: () => T,
): T {
  if (file && existsSync(file)) {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<
      string,
      { query: BenchQuery; ids: string[]; features: number[]; gold: number[] }[]
    >;
    const out: Record<string, QueryCandidates[]> = {};
    for (const [key, list] of Object.entries(raw)) {
      out[key] = list.map((c) => ({ ...c, features: Float64Array.from(c.features), gold: Int8Array.from(c.gold) }));
    }
    return out as T;
  }
  const computed = compute();
  if (file) {
    const plain = Object.fromEntries(
      Object.entries(computed).map(([key, list]) => [
        key,
        list.map((c) => ({ ...c, features: [...c.features], gold: [...c.gold] })),
      ]),
    );
    writeFileSync(file, JSON.stringify(plain));
  }
  return computed;
}
