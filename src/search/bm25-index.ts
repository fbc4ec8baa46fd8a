// A multi-field BM25+ inverted index over plain arrays: postings per term and field, document frequencies, per-field
// lengths, scoring into typed-array accumulators. minisearch's formula (BM25+ summed over fields with per-field length
// normalization) except that IDF counts documents, not fields; and a query touches each posting once without
// allocating, which keeps a 10,000-tool catalog near 1 ms where minisearch took over 10.

/** BM25+ parameters: term-frequency saturation k1, length normalization b, lower bound d. */
export interface Bm25Params {
  readonly k: number;
  readonly b: number;
  readonly d: number;
}

/** A term of a query: its weight, and which query word it stands for (coverage is counted per word). */
export interface WeightedTerm {
  readonly term: string;
  readonly weight: number;
  readonly source: string;
}

/** The documents a query touched, and per slot their BM25 score (summed over terms and fields) and covered words. */
export interface Bm25Scores {
  readonly slots: readonly number[];
  readonly scores: Float64Array;
  readonly covered: Uint16Array;
}

interface Posting {
  readonly slots: number[];
  readonly counts: number[];
}

interface TermEntry {
  /** Documents holding the term in any field. */
  df: number;
  readonly fields: (Posting | undefined)[];
}

/** An inverted index of `fieldCount` fields; documents live in reusable integer slots. */
export class Bm25Index {
  private readonly terms = new Map<string, TermEntry>();
  /** Which slots hold a document. */
  private readonly isUsed: boolean[] = [];
  private readonly freeSlots: number[] = [];
  private readonly totalLengths: number[];
  /** lengths[field][slot]: the hot loop reads these, so they sit in flat arrays. */
  private readonly lengths: number[][];
  private count = 0;
  // Reused by add(): building a catalog adds thousands of documents, and fresh maps for each would churn the heap.
  private readonly seenScratch = new Set<string>();
  private readonly countScratch = new Map<string, number>();

  constructor(private readonly fieldCount: number) {
    this.totalLengths = new Array<number>(fieldCount).fill(0);
    this.lengths = Array.from({ length: fieldCount }, () => []);
  }

  /** Number of documents. */
  get size(): number {
    return this.count;
  }

  /** Documents holding `term` in any field. */
  documentFrequency(term: string): number {
    return this.terms.get(term)?.df ?? 0;
  }

  /** Adds a document given each field's terms (in order, repeats counted); returns its slot. */
  add(fields: readonly (readonly string[])[]): number {
    const slot = this.freeSlots.pop() ?? this.isUsed.length;
    const seen = this.seenScratch;
    const counts = this.countScratch;
    seen.clear();
    for (let f = 0; f < this.fieldCount; f++) {
      const tokens = fields[f] ?? [];
      counts.clear();
      for (const term of tokens) counts.set(term, (counts.get(term) ?? 0) + 1);
      for (const [term, n] of counts) {
        let entry = this.terms.get(term);
        if (!entry) {
          entry = { df: 0, fields: new Array<Posting | undefined>(this.fieldCount) };
          this.terms.set(term, entry);
        }
        if (!seen.has(term)) {
          seen.add(term);
          entry.df++;
        }
        let posting = entry.fields[f];
        if (!posting) {
          posting = { slots: [], counts: [] };
          entry.fields[f] = posting;
        }
        posting.slots.push(slot);
        posting.counts.push(n);
      }
      this.lengths[f]![slot] = tokens.length;
      this.totalLengths[f]! += tokens.length;
    }
    this.isUsed[slot] = true;
    this.count++;
    return slot;
  }

  /** Removes the document in `slot`, given the same fields it was added with (nothing happens for an empty slot). */
  remove(slot: number, fields: readonly (readonly string[])[]): void {
    if (!this.isUsed[slot]) return;
    const seen = this.seenScratch;
    seen.clear();
    for (let f = 0; f < this.fieldCount; f++) {
      for (const term of new Set(fields[f] ?? [])) {
        const entry = this.terms.get(term);
        const posting = entry?.fields[f];
        if (!entry || !posting) continue;
        const at = posting.slots.indexOf(slot);
        if (at >= 0) {
          // Order inside a posting does not matter: swap with the last and drop it.
          posting.slots[at] = posting.slots[posting.slots.length - 1]!;
          posting.counts[at] = posting.counts[posting.counts.length - 1]!;
          posting.slots.pop();
          posting.counts.pop();
        }
        if (posting.slots.length === 0) entry.fields[f] = undefined;
        if (!seen.has(term)) {
          seen.add(term);
          entry.df--;
          if (entry.df <= 0) this.terms.delete(term);
        }
      }
      this.totalLengths[f]! -= this.lengths[f]![slot] ?? 0;
      this.lengths[f]![slot] = 0;
    }
    this.isUsed[slot] = false;
    this.freeSlots.push(slot);
    this.count--;
  }

  /** Every document holding at least one term, with its weighted BM25+ score and the query words it covered. */
  score(terms: readonly WeightedTerm[], boosts: readonly number[], params: Bm25Params): Bm25Scores {
    const capacity = this.isUsed.length;
    const scores = new Float64Array(capacity);
    const covered = new Uint16Array(capacity);
    const stamp = new Int32Array(capacity);
    const touched: number[] = [];
    // Terms of one query word are scored together, so a document covers each word once.
    const bySource = new Map<string, WeightedTerm[]>();
    for (const term of terms) {
      const group = bySource.get(term.source);
      if (group) group.push(term);
      else bySource.set(term.source, [term]);
    }
    let sourceId = 0;
    for (const group of bySource.values()) {
      sourceId++;
      for (const { term, weight } of group)
        this.scoreTerm(term, weight, sourceId, boosts, params, { scores, covered, stamp, touched });
    }
    return { slots: touched, scores, covered };
  }

  private scoreTerm(
    term: string,
    weight: number,
    sourceId: number,
    boosts: readonly number[],
    params: Bm25Params,
    acc: Accumulators,
  ): void {
    const entry = this.terms.get(term);
    if (!entry) return;
    const n = this.count;
    const { k, b, d } = params;
    const { scores, covered, stamp, touched } = acc;
    for (let f = 0; f < this.fieldCount; f++) {
      const posting = entry.fields[f];
      const boost = boosts[f] ?? 1;
      if (!posting || boost === 0) continue;
      // IDF over the whole document, not per field: a word rare among names but common in descriptions says little.
      const idf = Math.log(1 + (n - entry.df + 0.5) / (entry.df + 0.5));
      const avgLength = this.totalLengths[f]! / n || 1;
      const factor = weight * boost * idf;
      const { slots, counts } = posting;
      const fieldLengths = this.lengths[f]!;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i]!;
        const tf = counts[i]!;
        scores[slot]! += factor * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * fieldLengths[slot]!) / avgLength)));
        if (stamp[slot] !== sourceId) {
          if (stamp[slot] === 0) touched.push(slot);
          stamp[slot] = sourceId;
          covered[slot]!++;
        }
      }
    }
  }
}

interface Accumulators {
  readonly scores: Float64Array;
  readonly covered: Uint16Array;
  readonly stamp: Int32Array;
  readonly touched: number[];
}
