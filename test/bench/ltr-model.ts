// Issue #23, round 11: a linear re-ranker over ltr-features.ts, learned by a listwise softmax (ListNet with one
// relevant tool) or a pairwise logistic loss (RankNet), with L2 regularization toward the app's own ranking: the score
// is w0 × base + Σ w_k × standardized feature k, w0 free and every other weight held near 0, so a large λ gives back
// the app's order exactly.
import { FEATURE_COUNT, type QueryCandidates } from './ltr-features';

export type Loss = 'softmax' | 'pairwise';

/** A learned re-ranker: the weights of standardized features (index 0, the base score, is not standardized). */
export interface LinearRanker {
  readonly weights: Float64Array;
  readonly mean: Float64Array;
  readonly scale: Float64Array;
}

export interface TrainOptions {
  readonly loss: Loss;
  readonly lambda: number;
  /** Features used (others held at weight 0); the base score is always used. */
  readonly use: ReadonlySet<number>;
  readonly steps?: number;
  readonly rate?: number;
}

/** Mean and standard deviation of each feature over every candidate of the training queries. */
function moments(data: readonly QueryCandidates[]): { mean: Float64Array; scale: Float64Array } {
  const mean = new Float64Array(FEATURE_COUNT);
  const sq = new Float64Array(FEATURE_COUNT);
  let rows = 0;
  for (const q of data) {
    for (let r = 0; r < q.ids.length; r++) {
      for (let k = 0; k < FEATURE_COUNT; k++) {
        const x = q.features[r * FEATURE_COUNT + k]!;
        mean[k]! += x;
        sq[k]! += x * x;
      }
      rows++;
    }
  }
  const scale = new Float64Array(FEATURE_COUNT);
  for (let k = 0; k < FEATURE_COUNT; k++) {
    mean[k]! /= rows || 1;
    scale[k] = Math.sqrt(Math.max(0, sq[k]! / (rows || 1) - mean[k]! ** 2)) || 1;
  }
  mean[0] = 0;
  scale[0] = 1;
  return { mean, scale };
}

/** The re-ranker's score of each candidate of one query. */
export function scoreCandidates(model: LinearRanker, q: QueryCandidates): Float64Array {
  const out = new Float64Array(q.ids.length);
  for (let r = 0; r < q.ids.length; r++) {
    let s = 0;
    for (let k = 0; k < FEATURE_COUNT; k++) {
      const w = model.weights[k]!;
      if (w !== 0) s += (w * (q.features[r * FEATURE_COUNT + k]! - model.mean[k]!)) / model.scale[k]!;
    }
    out[r] = s;
  }
  return out;
}

/** A query's features standardized by the model's moments, unused features (weight 0) included. */
function standardize(model: LinearRanker, q: QueryCandidates): Float64Array {
  const z = new Float64Array(q.features.length);
  for (let i = 0; i < z.length; i++) {
    const k = i % FEATURE_COUNT;
    z[i] = (q.features[i]! - model.mean[k]!) / model.scale[k]!;
  }
  return z;
}

/** Loss and gradient of one query, added into `grad`; returns the loss. */
function queryLoss(model: LinearRanker, q: QueryCandidates, z: Float64Array, loss: Loss, grad: Float64Array): number {
  const s = new Float64Array(q.ids.length);
  for (let r = 0; r < q.ids.length; r++) {
    let sum = 0;
    for (let k = 0; k < FEATURE_COUNT; k++) sum += model.weights[k]! * z[r * FEATURE_COUNT + k]!;
    s[r] = sum;
  }
  const golds: number[] = [];
  const others: number[] = [];
  for (let r = 0; r < q.ids.length; r++) (q.gold[r]! >= 0 ? golds : others).push(r);
  if (golds.length === 0 || others.length === 0) return 0;
  // d loss / d score of each candidate; the gradient is then Σ_r coef_r × x_r.
  const coef = new Float64Array(q.ids.length);
  let total = 0;
  if (loss === 'softmax') {
    for (const g of golds) {
      let top = s[g]!;
      for (const o of others) top = Math.max(top, s[o]!);
      let z = Math.exp(s[g]! - top);
      for (const o of others) z += Math.exp(s[o]! - top);
      total += -(s[g]! - top - Math.log(z)) / golds.length;
      coef[g]! += (Math.exp(s[g]! - top) / z - 1) / golds.length;
      for (const o of others) coef[o]! += Math.exp(s[o]! - top) / z / golds.length;
    }
  } else {
    const pairs = golds.length * others.length;
    for (const g of golds) {
      for (const o of others) {
        const d = s[g]! - s[o]!;
        total += (d > 0 ? Math.log1p(Math.exp(-d)) : -d + Math.log1p(Math.exp(d))) / pairs;
        const c = -1 / (1 + Math.exp(d)) / pairs;
        coef[g]! += c;
        coef[o]! -= c;
      }
    }
  }
  for (let r = 0; r < q.ids.length; r++) {
    const c = coef[r]!;
    if (c === 0) continue;
    for (let k = 0; k < FEATURE_COUNT; k++) grad[k]! += c * z[r * FEATURE_COUNT + k]!;
  }
  return total;
}

/** Learns the weights by full-batch Adam on the mean query loss plus λ × Σ w_k² (k ≥ 1). */
export function train(data: readonly QueryCandidates[], options: TrainOptions): LinearRanker {
  const { loss, lambda, use, steps = 300, rate = 0.05 } = options;
  const { mean, scale } = moments(data);
  const weights = new Float64Array(FEATURE_COUNT);
  weights[0] = 1;
  const model = { weights, mean, scale };
  const m = new Float64Array(FEATURE_COUNT);
  const v = new Float64Array(FEATURE_COUNT);
  const learning = data.filter((q) => q.gold.some((g) => g >= 0));
  const standardized = learning.map((q) => standardize(model, q));
  for (let step = 1; step <= steps; step++) {
    const grad = new Float64Array(FEATURE_COUNT);
    learning.forEach((q, i) => queryLoss(model, q, standardized[i]!, loss, grad));
    for (let k = 0; k < FEATURE_COUNT; k++) {
      if (k !== 0 && !use.has(k)) continue;
      const g = grad[k]! / learning.length + (k === 0 ? 0 : 2 * lambda * weights[k]!);
      m[k] = 0.9 * m[k]! + 0.1 * g;
      v[k] = 0.999 * v[k]! + 0.001 * g * g;
      const mHat = m[k]! / (1 - 0.9 ** step);
      const vHat = v[k]! / (1 - 0.999 ** step);
      weights[k]! -= (rate * mHat) / (Math.sqrt(vHat) + 1e-8);
    }
  }
  return model;
}

/** The mean training loss of a model (to check convergence). */
export function meanLoss(model: LinearRanker, data: readonly QueryCandidates[], loss: Loss): number {
  const learning = data.filter((q) => q.gold.some((g) => g >= 0));
  const grad = new Float64Array(FEATURE_COUNT);
  const sum = learning.reduce((total, q) => total + queryLoss(model, q, standardize(model, q), loss, grad), 0);
  return sum / (learning.length || 1);
}

/** The candidates' ids re-ranked by the model: the first `depth` re-ordered (ties keep the app's order), the rest as
 * they were. */
export function rerankIds(model: LinearRanker, q: QueryCandidates, depth: number): string[] {
  const s = scoreCandidates(model, q);
  const head = q.ids
    .slice(0, depth)
    .map((id, i) => ({ id, i, s: s[i]! }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((e) => e.id);
  return [...head, ...q.ids.slice(depth)];
}
