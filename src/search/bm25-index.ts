// A multi-field BM25+ inverted index in flat typed arrays: terms interned to integer ids, one packed posting list per
// term (slot, field and term frequency in one 32-bit integer), per-slot field lengths, and scoring into accumulators
// reused from query to query. minisearch's formula (BM25+ summed over fields with per-field length normalization)
// except that IDF counts documents, not fields. Flat arrays keep a 10,000-tool build within a few hundred
// milliseconds and its heap near the size of the text; a query touches each posting once without allocating.
import { GrowableInts } from './growable-ints';

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

// A posting packs slot << 8 | field << 5 | term frequency (capped at 31: BM25 has long saturated by then).
const FIELD_SHIFT = 5;
const SLOT_SHIFT = 8;
const MAX_TF = 31;
/** Most fields an index can have (3 bits of a posting). */
export const MAX_FIELDS = 8;
/** Most documents an index can hold at once (the slot's 24 bits of a posting). */
export const MAX_DOCUMENTS = 1 << 23;
/** Documents of a term read to find the terms it co-occurs with. */
const COOCCURRENCE_SAMPLE = 32;

/**
 * An inverted index of `fieldCount` fields; documents live in reusable integer slots. Scores returned by `score` are
 * valid until the next call of `score` (the accumulators are reused).
 */
export class Bm25Index {
  private readonly termIds = new Map<string, number>();
  /** Each term id's term (for co-occurrence look-ups). */
  private readonly termOf: string[] = [];
  private readonly df = new GrowableInts();
  private readonly postings: GrowableInts[] = [];
  /** The distinct term ids of each slot's document (what removal has to undo); undefined for a free slot. */
  private readonly docTerms: (Int32Array | undefined)[] = [];
  private readonly freeSlots: number[] = [];
  /** lengths[slot * fieldCount + field]. */
  private readonly lengths = new GrowableInts();
  private readonly totalLengths: number[];
  private count = 0;
  // Scratch of add(): per term id, the stamp of the field and of the document that last saw it, and a count.
  private readonly seenInField = new GrowableInts();
  private readonly seenInDoc = new GrowableInts();
  private readonly tf = new GrowableInts();
  private stamp = 0;
  // Accumulators of score(), grown to the slot capacity and reset through the slots the last query touched.
  private scores = new Float64Array(0);
  private covered = new Uint16Array(0);
  private sourceStamp = new Int32Array(0);
  private touched: number[] = [];
  // Scratch of cooccurring(): a count per term id, left at zero between calls.
  private cooccurrence = new Int32Array(0);

  constructor(private readonly fieldCount: number) {
    if (fieldCount < 1 || fieldCount > MAX_FIELDS) throw new RangeError(`an index has 1..${MAX_FIELDS} fields`);
    this.totalLengths = new Array<number>(fieldCount).fill(0);
  }

  /** Number of documents. */
  get size(): number {
    return this.count;
  }

  /** Documents holding `term` in any field. */
  documentFrequency(term: string): number {
    const id = this.termIds.get(term);
    return id === undefined ? 0 : this.df.at(id);
  }

  /**
   * The terms that share the most documents with `term` beyond chance (lift over 2), strongest first, each with the
   * share of `term`'s documents that hold it; only terms held by at least `minShared` of them. Only for a term held by
   * 2..`maxDf` documents (a common term's company says little); at most COOCCURRENCE_SAMPLE of its documents are read.
   */
  cooccurring(term: string, maxDf: number, top: number, minShared = 2): [string, number][] {
    const id = this.termIds.get(term);
    if (id === undefined) return [];
    const df = this.df.at(id);
    if (df < minShared || df > maxDf) return [];
    if (this.cooccurrence.length < this.termOf.length) this.cooccurrence = new Int32Array(this.termOf.length * 2);
    const counts = this.cooccurrence;
    const seen: number[] = [];
    const postings = this.postings[id]!;
    const entries = postings.array;
    let last = -1;
    let docs = 0;
    for (let i = 0; i < postings.length && docs < COOCCURRENCE_SAMPLE; i++) {
      const slot = entries[i]! >>> SLOT_SHIFT;
      if (slot === last) continue;
      last = slot;
      docs++;
      const terms = this.docTerms[slot];
      if (!terms) continue;
      for (let j = 0; j < terms.length; j++) {
        const other = terms[j]!;
        const count = counts[other]!;
        if (count === 0) seen.push(other);
        counts[other] = count + 1;
      }
    }
    const scored: [string, number, number][] = [];
    for (const other of seen) {
      const shared = counts[other]!;
      counts[other] = 0;
      if (other === id || shared < minShared) continue;
      const share = shared / docs;
      const lift = (share * this.count) / this.df.at(other);
      if (lift > 2) scored.push([this.termOf[other]!, share, share * Math.log(lift)]);
    }
    scored.sort((a, b) => b[2] - a[2]);
    return scored.slice(0, top).map(([t, share]) => [t, share]);
  }

  private nextStamp(): number {
    if (this.stamp >= 0x7fffffff) {
      this.seenInField.fill(0);
      this.seenInDoc.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  private intern(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.postings.length;
      this.termIds.set(term, id);
      this.termOf.push(term);
      this.postings.push(new GrowableInts(4));
      this.df.push(0);
      this.seenInField.push(0);
      this.seenInDoc.push(0);
      this.tf.push(0);
    }
    return id;
  }

  /** Adds a document given each field's terms (in order, repeats counted); returns its slot. */
  add(fields: readonly (readonly string[])[]): number {
    const slot = this.freeSlots.pop() ?? this.docTerms.length;
    if (slot >= MAX_DOCUMENTS) throw new RangeError(`an index holds at most ${MAX_DOCUMENTS} documents`);
    const docStamp = this.nextStamp();
    const distinct: number[] = [];
    const inField: number[] = [];
    for (let f = 0; f < this.fieldCount; f++) {
      const tokens = fields[f] ?? [];
      const fieldStamp = this.nextStamp();
      inField.length = 0;
      for (const token of tokens) {
        const id = this.intern(token);
        if (this.seenInField.at(id) !== fieldStamp) {
          this.seenInField.set(id, fieldStamp);
          this.tf.set(id, 1);
          inField.push(id);
        } else this.tf.set(id, this.tf.at(id) + 1);
      }
      for (const id of inField) {
        this.postings[id]!.push((slot << SLOT_SHIFT) | (f << FIELD_SHIFT) | Math.min(MAX_TF, this.tf.at(id)));
        if (this.seenInDoc.at(id) !== docStamp) {
          this.seenInDoc.set(id, docStamp);
          this.df.set(id, this.df.at(id) + 1);
          distinct.push(id);
        }
      }
      this.lengths.set(slot * this.fieldCount + f, tokens.length);
      this.totalLengths[f]! += tokens.length;
    }
    this.docTerms[slot] = Int32Array.from(distinct);
    this.count++;
    return slot;
  }

  /** Removes the document in `slot` (nothing happens for a free slot). */
  remove(slot: number): void {
    this.removeMany([slot]);
  }

  /** Removes several documents at once: each posting list they appear in is filtered once, whatever their number. */
  removeMany(slots: readonly number[]): void {
    const stamp = this.nextStamp();
    const dying = new Uint8Array(this.docTerms.length);
    const removed: number[] = [];
    const affected: number[] = [];
    for (const slot of slots) {
      const terms = this.docTerms[slot];
      if (!terms) continue;
      dying[slot] = 1;
      removed.push(slot);
      for (const id of terms) {
        this.df.set(id, this.df.at(id) - 1);
        if (this.seenInDoc.at(id) !== stamp) {
          this.seenInDoc.set(id, stamp);
          affected.push(id);
        }
      }
      for (let f = 0; f < this.fieldCount; f++) {
        this.totalLengths[f]! -= this.lengths.at(slot * this.fieldCount + f);
        this.lengths.set(slot * this.fieldCount + f, 0);
      }
      this.docTerms[slot] = undefined;
      this.count--;
    }
    for (const id of affected) this.postings[id]!.dropSlots(dying, SLOT_SHIFT);
    for (const slot of removed) this.freeSlots.push(slot);
  }

  /** Every document holding at least one term, with its weighted BM25+ score and the query words it covered. */
  score(terms: readonly WeightedTerm[], boosts: readonly number[], params: Bm25Params): Bm25Scores {
    this.resetAccumulators();
    // Terms of one query word are scored together, so a document covers each word once.
    const bySource = new Map<string, WeightedTerm[]>();
    for (const term of terms) {
      const group = bySource.get(term.source);
      if (group) group.push(term);
      else bySource.set(term.source, [term]);
    }
    const norms = this.fieldNorms(params);
    let sourceId = 0;
    for (const group of bySource.values()) {
      sourceId++;
      for (const { term, weight } of group) this.scoreTerm(term, weight, sourceId, boosts, params, norms);
    }
    return { slots: this.touched, scores: this.scores, covered: this.covered };
  }

  private resetAccumulators(): void {
    const capacity = this.docTerms.length;
    if (this.scores.length < capacity) {
      const size = Math.max(capacity, this.scores.length * 2, 64);
      this.scores = new Float64Array(size);
      this.covered = new Uint16Array(size);
      this.sourceStamp = new Int32Array(size);
    } else {
      for (const slot of this.touched) {
        this.scores[slot] = 0;
        this.covered[slot] = 0;
        this.sourceStamp[slot] = 0;
      }
    }
    this.touched = [];
  }

  /** Per field, the length-normalization terms k·(1−b) and k·b/avgLength. */
  private fieldNorms({ k, b }: Bm25Params): { constant: Float64Array; perLength: Float64Array } {
    const constant = new Float64Array(MAX_FIELDS);
    const perLength = new Float64Array(MAX_FIELDS);
    for (let f = 0; f < this.fieldCount; f++) {
      const avgLength = this.totalLengths[f]! / this.count || 1;
      constant[f] = k * (1 - b);
      perLength[f] = (k * b) / avgLength;
    }
    return { constant, perLength };
  }

  private scoreTerm(
    term: string,
    weight: number,
    sourceId: number,
    boosts: readonly number[],
    { k, d }: Bm25Params,
    norms: { constant: Float64Array; perLength: Float64Array },
  ): void {
    const id = this.termIds.get(term);
    if (id === undefined) return;
    const df = this.df.at(id);
    if (df <= 0) return;
    // IDF over the whole document, not per field: a word rare among names but common in descriptions says little.
    const idf = Math.log(1 + (this.count - df + 0.5) / (df + 0.5));
    const factors = new Float64Array(MAX_FIELDS);
    for (let f = 0; f < this.fieldCount; f++) factors[f] = weight * (boosts[f] ?? 1) * idf;
    const { constant, perLength } = norms;
    const { scores, covered, sourceStamp, touched } = this;
    const lengths = this.lengths.array;
    const fieldCount = this.fieldCount;
    const posting = this.postings[id]!;
    const entries = posting.array;
    for (let i = 0, n = posting.length; i < n; i++) {
      const entry = entries[i]!;
      const f = (entry >>> FIELD_SHIFT) & 7;
      const factor = factors[f]!;
      if (factor === 0) continue;
      const slot = entry >>> SLOT_SHIFT;
      const tf = entry & MAX_TF;
      const norm = constant[f]! + perLength[f]! * lengths[slot * fieldCount + f]!;
      scores[slot]! += factor * (d + (tf * (k + 1)) / (tf + norm));
      if (sourceStamp[slot] !== sourceId) {
        if (sourceStamp[slot] === 0) touched.push(slot);
        sourceStamp[slot] = sourceId;
        covered[slot]!++;
      }
    }
  }
}
