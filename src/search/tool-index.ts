import type { ToolRef } from '../domain/tool-catalog';
import { Bm25Index, type WeightedTerm } from './bm25-index';
import { addCooccurringTerms } from './cooccurrence';
import { feedbackTerms } from './feedback';
import { MAX_QUERY_CHARS, queryTerms } from './query-terms';
import {
  bestSlots,
  coordinationTable,
  DEFAULT_TUNING,
  rankHits,
  selectTerms,
  type IndexTuning,
  type RankInput,
} from './ranking';
import { liftPrerequisites } from './prerequisites';
import { regexSearch } from './regex-search';
import { proximityShare, queryPairs, rerankTop } from './rerank';
import { rerankBySemantics, SemanticScorer } from './semantic';
import { tokenize } from './tokenize';
import { MAX_INDEXED_TOOLS, refusalOf, ReportBuilder, type IndexReport } from './tool-intake';
import { toMatch, type ToolSearchResult } from './search-result';
import { documentTerms, INDEXED_FIELDS, toolDocument, type SearchableTool, type ToolDocument } from './tool-document';
import type { WordVectors } from './word-vectors';

export { DEFAULT_TUNING, type IndexTuning } from './ranking';
export { MAX_INDEXED_TOOLS, type IndexReport } from './tool-intake';

/** Which tools a search may see: a hard filter, applied before ranking. */
export interface SearchScope {
  readonly serverIds: ReadonlySet<string>;
  /** False for a tool the user disabled; absent means every tool of the servers in scope. */
  isToolEnabled?(ref: ToolRef): boolean;
}

/** The scope of exactly these tools: their servers, and within them only these tools. */
export function scopeForTools(tools: readonly SearchableTool[]): SearchScope {
  const byServer = new Map<string, Set<string>>();
  for (const tool of tools) {
    const names = byServer.get(tool.serverId);
    if (names) names.add(tool.toolName);
    else byServer.set(tool.serverId, new Set([tool.toolName]));
  }
  return {
    serverIds: new Set(byServer.keys()),
    isToolEnabled: (ref) => byServer.get(ref.serverId)?.has(ref.toolName) ?? false,
  };
}

/** How to search: BM25 over words (the default) or a regular expression over names and descriptions. */
export type SearchStrategy = 'bm25' | 'regex';

/** What a search looks at and how much it returns. */
export interface SearchOptions {
  readonly scope: SearchScope;
  /** At most this many matches (default 10, at most 50). */
  readonly limit?: number;
  readonly strategy?: SearchStrategy;
}

/** The tool index: incremental per server, searched within a scope. */
export interface ToolIndex {
  /** Replaces all tools of one server (an empty list removes them); says which were refused, and why. */
  upsertServer(serverId: string, tools: readonly SearchableTool[]): IndexReport;
  /** Adds tools to a server, keeping the ones it has (used by chunked builds). */
  addTools(serverId: string, tools: readonly SearchableTool[]): IndexReport;
  removeServer(serverId: string): void;
  /** Never throws: an unusable regex pattern is an `{ ok: false, error }` result. */
  search(query: string, options: SearchOptions): ToolSearchResult;
  /** The indexed tools of the given servers (all servers when omitted). */
  tools(serverIds?: ReadonlySet<string>): SearchableTool[];
  /**
   * Word vectors for the semantic re-ranking (see semantic.ts), or undefined to rank by words alone (the state until
   * the vectors file has loaded, and where it cannot).
   */
  setWordVectors(vectors: WordVectors | undefined): void;
  readonly size: number;
}

/** Matches returned when no limit is given. */
export const DEFAULT_LIMIT = 10;
/** Most matches one search returns. */
export const MAX_LIMIT = 50;
const MIN_CANDIDATES = 250;

/** Clamps a requested result count to 1..MAX_LIMIT (DEFAULT_LIMIT when absent or not a number). */
export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}

const inScope = (scope: SearchScope, tool: SearchableTool): boolean =>
  scope.serverIds.has(tool.serverId) && (scope.isToolEnabled?.(tool) ?? true);

/** Creates an empty BM25 tool index with the given ranking knobs. */
export function createToolIndex(
  tuning: IndexTuning = DEFAULT_TUNING,
  { maxTools = MAX_INDEXED_TOOLS }: { readonly maxTools?: number } = {},
): ToolIndex {
  const bm25 = new Bm25Index(INDEXED_FIELDS.length);
  const boosts = INDEXED_FIELDS.map((field) => tuning.boosts[field]);
  /** Documents by their slot in the BM25 index (an array: the hot loop reads it). */
  const docs: (ToolDocument | undefined)[] = [];
  let docCount = 0;
  /** Each server's slots. */
  const byServer = new Map<string, number[]>();
  /** Each server's tool names (kept, not rebuilt per call: a large server is added a few tools at a time). */
  const namesByServer = new Map<string, Set<string>>();
  /** A number per server id, and each slot's server number: a scope check in the hot loop is an array read. */
  const serverNumbers = new Map<string, number>();
  const slotServer: number[] = [];
  let nextId = 1;
  let semantic: SemanticScorer | undefined;
  const catalog = {
    get size() {
      return docCount;
    },
    documentFrequency: (term: string) => bm25.documentFrequency(term),
    sample(count: number): ToolDocument[] {
      const live = docs.filter((doc): doc is ToolDocument => doc !== undefined);
      const step = Math.max(1, live.length / count);
      const out: ToolDocument[] = [];
      for (let i = 0; i < live.length && out.length < count; i += step) out.push(live[Math.floor(i)]!);
      return out;
    },
  };

  function addTools(serverId: string, tools: readonly SearchableTool[]): IndexReport {
    const slots = byServer.get(serverId) ?? [];
    let serverNumber = serverNumbers.get(serverId);
    if (serverNumber === undefined) serverNumbers.set(serverId, (serverNumber = serverNumbers.size));
    let names = namesByServer.get(serverId);
    if (!names) namesByServer.set(serverId, (names = new Set()));
    const report = new ReportBuilder();
    for (const tool of tools) {
      const refusal = refusalOf(tool, serverId, names, docCount, maxTools);
      if (refusal) {
        report.refuse(tool, refusal);
        continue;
      }
      names.add(tool.toolName);
      const doc = toolDocument(nextId++, tool);
      const terms = documentTerms(doc);
      report.noteIndexed(tool, terms);
      const slot = bm25.add(terms);
      docs[slot] = doc;
      slotServer[slot] = serverNumber;
      docCount++;
      slots.push(slot);
    }
    byServer.set(serverId, slots);
    semantic?.catalogChanged();
    return report.build();
  }

  function removeServer(serverId: string): void {
    const slots = byServer.get(serverId) ?? [];
    bm25.removeMany(slots);
    for (const slot of slots) {
      if (!docs[slot]) continue;
      docs[slot] = undefined;
      docCount--;
    }
    byServer.delete(serverId);
    namesByServer.delete(serverId);
    semantic?.catalogChanged();
  }

  /** One scoring pass: the in-scope documents the terms reach, the best candidates, ranked. */
  function rankPass(
    terms: readonly WeightedTerm[],
    scope: SearchScope,
    allowed: Uint8Array,
    limit: number,
    rerank: (ranked: { doc: ToolDocument; score: number }[]) => { doc: ToolDocument; score: number }[] = (r) => r,
  ) {
    const { slots, scores, covered } = bm25.score(terms, boosts, tuning.bm25);
    const coordination = coordinationTable(terms.length, tuning);
    const inScopeSlots: number[] = [];
    for (const slot of slots) {
      if (allowed[slotServer[slot]!] !== 1 || !docs[slot]) continue;
      scores[slot]! *= coordination[covered[slot]!] ?? 1;
      inScopeSlots.push(slot);
    }
    const count = Math.max(MIN_CANDIDATES, limit * 10);
    const isEnabled = (slot: number): boolean => scope.isToolEnabled?.(docs[slot]!.tool) ?? true;
    // A tool switched off is rare, so the per-tool check runs on the best candidates first, on all only if one fails.
    let best = bestSlots(inScopeSlots, scores, count);
    if (!best.every(isEnabled)) best = bestSlots(inScopeSlots.filter(isEnabled), scores, count);
    // Only the best candidates are ranked in full; the rest could not reach the top `limit`.
    const hits: RankInput[] = best.map((slot) => ({ doc: docs[slot]!, score: scores[slot]! }));
    return { ranked: rerank(rankHits(hits, tuning)), best, covered };
  }

  function bm25Search(query: string, scope: SearchScope, limit: number): ToolSearchResult {
    const all = queryTerms(query.slice(0, MAX_QUERY_CHARS), {
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
    const terms = selectTerms(all, (term) => bm25.documentFrequency(term), tuning, bm25.size);
    if (terms.length === 0) return { ok: true, matches: [] };
    const allowed = new Uint8Array(serverNumbers.size);
    for (const serverId of scope.serverIds) {
      const serverNumber = serverNumbers.get(serverId);
      if (serverNumber !== undefined) allowed[serverNumber] = 1;
    }
    // Term proximity over the query's own words in their order (related and generic words left out).
    const pairs =
      tuning.proximityWeight > 0
        ? queryPairs(tokenize(query.slice(0, MAX_QUERY_CHARS)).filter((t) => all.get(t)?.kind === 'own'))
        : undefined;
    const scorer = tuning.semanticWeight > 0 ? semantic : undefined;
    const rerank = (ranked: { doc: ToolDocument; score: number }[]) => {
      const near = pairs ? rerankTop(ranked, tuning.proximityWeight, (doc) => proximityShare(pairs, doc)) : ranked;
      return scorer
        ? rerankBySemantics(near, tuning.semanticWeight, (found) =>
            scorer.closeness(query.slice(0, MAX_QUERY_CHARS), found),
          )
        : near;
    };
    let pass = rankPass(terms, scope, allowed, limit, rerank);
    if (tuning.feedbackTerms > 0 && pass.ranked.length > 0) {
      const n = bm25.size;
      const idf = (term: string): number => {
        const df = bm25.documentFrequency(term);
        return Math.log(1 + (n - df + 0.5) / (df + 0.5));
      };
      const extra = feedbackTerms(pass.ranked.slice(0, tuning.feedbackDocs), new Set(all.keys()), idf, {
        terms: tuning.feedbackTerms,
        weight: tuning.feedbackWeight,
      });
      pass = rankPass([...terms, ...extra], scope, allowed, limit, rerank);
    }
    const { best, covered } = pass;
    // How many of the query's words the best match covers (a related word counting for its word, the generic ones
    // together as one): under half, and the model had better rephrase than take a poor match.
    const words = new Set([...all.values()].map((term) => term.source)).size;
    const firstSlot = best.find((slot) => docs[slot] === pass.ranked[0]?.doc);
    const matched = firstSlot === undefined ? 0 : covered[firstSlot]!;
    const weak = pass.ranked.length > 0 && matched * 2 < words;
    // A best match that is only a guess brings no prerequisites: they would crowd the list with tools of its server.
    const ranked = weak
      ? pass.ranked
      : liftPrerequisites(pass.ranked, {
          weight: tuning.prerequisiteWeight,
          from: tuning.prerequisiteFrom,
          perTool: tuning.prerequisitesPerTool,
        });
    const matches = ranked.slice(0, limit).map(({ doc, score }) => toMatch(doc.tool, score));
    return weak
      ? { ok: true, matches, weakMatch: { matchedWords: matched, queryWords: words } }
      : { ok: true, matches };
  }

  return {
    upsertServer(serverId, tools) {
      removeServer(serverId);
      return addTools(serverId, tools);
    },
    addTools,
    removeServer,
    search(query, options) {
      const limit = clampLimit(options.limit);
      if (options.strategy === 'regex') {
        const inScopeDocs = docs.filter(
          (doc): doc is ToolDocument => doc !== undefined && inScope(options.scope, doc.tool),
        );
        return regexSearch(query, inScopeDocs, { limit });
      }
      return bm25Search(query, options.scope, limit);
    },
    tools(serverIds) {
      const ids = serverIds ? [...serverIds] : [...byServer.keys()];
      return ids.flatMap((id) => (byServer.get(id) ?? []).flatMap((slot) => docs[slot]?.tool ?? []));
    },
    setWordVectors(vectors) {
      semantic = vectors ? new SemanticScorer(vectors, catalog) : undefined;
      semantic?.catalogChanged();
    },
    get size() {
      return docCount;
    },
  };
}
