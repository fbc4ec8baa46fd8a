// Semantic re-ranking (issue #23, round 4): the best few tools of a search move by how close the meaning of the
// request is to the tool's name and description, as general-purpose word vectors see it (word-vectors.ts), so a
// request that says "purchase" favours, among the tools its words found, the one that says "buy". A text's vector is
// the IDF-weighted sum of its words' vectors; what the whole catalog shares (its mean direction) is taken out of both
// before comparing, so that "a tool that does something with data" does not count as closeness.
import { REQUEST_WORDS } from './query-terms';
import { normalizeTerm, splitWords, STOP_WORDS } from './tokenize';
import type { ToolDocument } from './tool-document';
import type { WordVectors } from './word-vectors';

/** How many of the best tools the semantic signal re-ranks. */
export const SEMANTIC_DEPTH = 20;
/** Tools read for the catalog's mean direction: an even sample is as good as all of them, and bounded. */
const DIRECTION_SAMPLE = 256;
/** Characters of a description read (as the index reads). */
const DESCRIPTION_CHARS = 4_000;

/** What the scorer reads from the index. */
export interface SemanticCatalog {
  readonly size: number;
  /** How many tools hold a term (index form). */
  documentFrequency(term: string): number;
  /** Up to `count` indexed documents spread evenly over the catalog. */
  sample(count: number): ToolDocument[];
}

/** The words of a text that carry meaning: split, lowercased, stop words and request words dropped. */
function meaningfulWords(text: string): string[] {
  return splitWords(text).filter((word) => !STOP_WORDS.has(word) && !REQUEST_WORDS.has(normalizeTerm(word)));
}

function normalize(vector: Float32Array): Float32Array | undefined {
  let sum = 0;
  for (const x of vector) sum += x * x;
  if (sum === 0) return undefined;
  const norm = Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * The semantic signal of one index: document vectors cached by document id until the catalog changes (their IDF
 * weights change with it; so the ranking never depends on which searches ran before), the mean direction likewise.
 */
export class SemanticScorer {
  private readonly docVectors = new Map<number, Float32Array | null>();
  private direction: Float32Array | undefined;
  private directionStale = true;

  constructor(
    private readonly vectors: WordVectors,
    private readonly catalog: SemanticCatalog,
  ) {}

  /** The catalog changed: tool vectors and the mean direction are taken again when next needed. */
  catalogChanged(): void {
    this.directionStale = true;
    this.docVectors.clear();
  }

  /** The query's closeness to each of the tools, after the mean direction is taken out (0 where either has no vector). */
  closeness(query: string, docs: readonly ToolDocument[]): number[] {
    const direction = this.meanDirection();
    const q = this.embed(meaningfulWords(query));
    if (!q) return docs.map(() => 0);
    const qOff = direction ? normalizeResidual(removeDirection(q, direction)) : q;
    if (!qOff) return docs.map(() => 0);
    return docs.map((doc) => {
      const d = this.docVector(doc);
      if (!d) return 0;
      if (!direction) return dot(qOff, d);
      // |d| = 1, so d without the direction has length sqrt(1 − (d·u)²); qOff is orthogonal to u already.
      // A tool that is (almost) nothing but the mean direction has no meaning of its own left to compare.
      const along = dot(d, direction);
      const rest = Math.sqrt(Math.max(0, 1 - along * along));
      return rest < 1e-3 ? 0 : dot(qOff, d) / rest;
    });
  }

  private idf(word: string): number {
    const n = this.catalog.size;
    return Math.log((n + 1) / (this.catalog.documentFrequency(normalizeTerm(word)) + 0.5));
  }

  /** The unit IDF-weighted sum of the words' vectors, or undefined when none of the words has one. */
  private embed(words: readonly string[]): Float32Array | undefined {
    const sum = new Float32Array(this.vectors.dimensions);
    for (const word of words) {
      const row = this.vectors.row(word);
      if (row >= 0) this.vectors.addTo(sum, row, this.idf(word));
    }
    return normalize(sum);
  }

  private docVector(doc: ToolDocument): Float32Array | undefined {
    let vector = this.docVectors.get(doc.id);
    if (vector === undefined) {
      vector = this.embed(meaningfulWords(`${doc.name} ${doc.description.slice(0, DESCRIPTION_CHARS)}`)) ?? null;
      this.docVectors.set(doc.id, vector);
    }
    return vector ?? undefined;
  }

  private meanDirection(): Float32Array | undefined {
    if (this.directionStale) {
      const sum = new Float32Array(this.vectors.dimensions);
      for (const doc of this.catalog.sample(DIRECTION_SAMPLE)) {
        const d = this.docVector(doc);
        if (d) for (let i = 0; i < sum.length; i++) sum[i]! += d[i]!;
      }
      this.direction = normalize(sum);
      this.directionStale = false;
    }
    return this.direction;
  }
}

/** A vector with the mean direction taken out, made unit length; undefined when (almost) nothing is left of it. */
function normalizeResidual(vector: Float32Array): Float32Array | undefined {
  let sum = 0;
  for (const x of vector) sum += x * x;
  return sum < 1e-6 ? undefined : normalize(vector);
}

function removeDirection(vector: Float32Array, direction: Float32Array): Float32Array {
  const along = dot(vector, direction);
  for (let i = 0; i < vector.length; i++) vector[i]! -= along * direction[i]!;
  return vector;
}

/**
 * Adds `weight × the best score × closeness` to the best SEMANTIC_DEPTH tools and sorts them again (the rest keep
 * their order below); scaling by the best score keeps the weight's meaning whatever the scores' size.
 */
export function rerankBySemantics<T extends { doc: ToolDocument; score: number }>(
  ranked: T[],
  weight: number,
  closeness: (docs: readonly ToolDocument[]) => number[],
): T[] {
  if (weight === 0 || ranked.length < 2) return ranked;
  const top = ranked.slice(0, SEMANTIC_DEPTH);
  const best = top[0]!.score;
  const values = closeness(top.map((entry) => entry.doc));
  top.forEach((entry, i) => (entry.score += weight * best * values[i]!));
  top.sort((a, b) => b.score - a.score || a.doc.id - b.doc.id);
  return [...top, ...ranked.slice(SEMANTIC_DEPTH)];
}
