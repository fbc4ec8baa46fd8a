// npx tsx test/bench/ltr-candidates.ts [--data ../shared/data/toolsearch] [--only label]
// Issue #23, round 11: a learned re-ranker of the app's best 30 (ltr-features.ts, ltr-model.ts), measured as the
// rounds before. Learn/check split: MetaTool's tools sorted by id, even and odd; a model learned on the queries of one
// half (their gold tool in it) ranks the other half, so each half's cell is held out; dev (LiveMCPBench) is never
// learned from, and is ranked by the model learned on both MetaTool halves (the model that would ship), with the two
// one-half models' dev figures printed after the row. +/− count against the default ranking (the app as it is).
import { parseArgs } from 'node:util';
import { readQualitySets, type BenchQuery } from './dataset';
import { cachedCandidates, DEPTH, extractCandidates, FEATURES, type QueryCandidates } from './ltr-features';
import { meanLoss, rerankIds, train, type LinearRanker, type Loss } from './ltr-model';
import { quality, recallAt } from './metrics';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '../shared/data/toolsearch' },
    only: { type: 'string' },
    // A file outside the project where the features are kept between runs (they take about half a minute).
    cache: { type: 'string' },
  },
});
const { live, meta, isEven } = readQualitySets(values.data);
const started = performance.now();
const { dev, all } = cachedCandidates(values.cache, () => ({
  dev: extractCandidates(live),
  all: extractCandidates(meta),
}));
console.error(`features: ${Math.round(performance.now() - started)} ms`);
const isEvenQuery = (q: BenchQuery): boolean => isEven.get(q.expectedTools[0]?.[0] ?? '') === true;
const even = all.filter((c) => isEvenQuery(c.query));
const odd = all.filter((c) => !isEvenQuery(c.query));

const hits = (tops: readonly (readonly string[])[], qs: readonly QueryCandidates[]) =>
  qs.map((c, i) => recallAt(c.query, tops[i]!, 5));
const baseEven = hits(
  even.map((c) => c.ids),
  even,
);
const baseOdd = hits(
  odd.map((c) => c.ids),
  odd,
);

function cell(qs: readonly QueryCandidates[], tops: readonly (readonly string[])[], base: readonly number[]): string {
  const h = hits(tops, qs);
  const gained = h.filter((x, i) => x > base[i]!).length;
  const lost = h.filter((x, i) => x < base[i]!).length;
  const r = quality(
    qs.map((c) => c.query),
    tops,
  ).recallAt5;
  return `${r} (+${gained}/−${lost})`;
}

const index = (name: (typeof FEATURES)[number]): number => FEATURES.indexOf(name);
const featureSet = (keep: (name: (typeof FEATURES)[number]) => boolean): ReadonlySet<number> =>
  new Set(FEATURES.flatMap((name, k) => (k > 0 && keep(name) ? [k] : [])));
const GROUPS: readonly [string, ReadonlySet<number>][] = [
  ['every feature but propagation', featureSet((f) => !f.startsWith('propagated'))],
  [
    'every feature (propagation from the other tools of the best 30)',
    featureSet((f) => !f.startsWith('propagated from')),
  ],
  ['no semantic cosine, no propagation', featureSet((f) => !f.startsWith('propagated') && f !== 'semantic cosine')],
  [
    'no server features (relevance, tools in list, prerequisite), no propagation',
    featureSet((f) => !/server|prerequisite|propagated/.test(f) || f === 'bm25 server'),
  ],
  [
    'word matching only (per-field BM25, word and IDF shares, name in query)',
    featureSet((f) => /bm25|share|name all|covered/.test(f)),
  ],
];

interface Variant {
  readonly label: string;
  readonly loss: Loss;
  readonly lambda: number;
  readonly use: ReadonlySet<number>;
  readonly depth?: number;
}

const VARIANTS: Variant[] = [];
for (const [group, use] of GROUPS) {
  for (const lambda of [1, 0.1, 0.01])
    VARIANTS.push({ label: `pairwise, ${group}, λ ${lambda}`, loss: 'pairwise', lambda, use });
}
VARIANTS.push({ label: `softmax, ${GROUPS[0]![0]}, λ 0.01`, loss: 'softmax', lambda: 0.01, use: GROUPS[0]![1] });
for (const loss of ['pairwise', 'softmax'] as const) {
  VARIANTS.push({
    label: `${loss}, ${GROUPS[0]![0]}, λ 0.01, best 10 only`,
    loss,
    lambda: 0.01,
    use: GROUPS[0]![1],
    depth: 10,
  });
}

/**
 * Score propagation, not learned: the app's score over its best plus λ × Σ (TF-IDF cosine of name and description with
 * another tool × that tool's score over the best), from every other tool of the list, from the best 5 only, or from
 * the best 5 of the tool's own server.
 */
const PROPAGATION = (
  [
    ['propagated score', `the other tools of the best ${DEPTH}`],
    ['propagated from the best 5', 'the best 5'],
    ['propagated from the best 5 of its server', 'the best 5 of its own server'],
  ] as const
).flatMap(([feature, from]) =>
  [0.05, 0.1, 0.2, 0.4].map((lambda): [string, LinearRanker] => {
    const weights = new Float64Array(FEATURES.length);
    weights[0] = 1;
    weights[index(feature)] = lambda;
    return [
      `score propagation from ${from} by TF-IDF similarity, λ ${lambda} (not learned)`,
      { weights, mean: new Float64Array(FEATURES.length), scale: new Float64Array(FEATURES.length).fill(1) },
    ];
  }),
);

const weightsOf = (model: LinearRanker): string =>
  FEATURES.map((name, k) => [name, model.weights[k]!] as const)
    .filter(([, w]) => Math.abs(w) > 0.005)
    .map(([name, w]) => `${name} ${w.toFixed(2)}`)
    .join(', ');

console.log(
  `| default (the app's best ${DEPTH}, not re-ranked) | ${
    quality(
      live.queries,
      dev.map((c) => c.ids),
    ).recallAt5
  } | ${
    quality(
      live.queries,
      dev.map((c) => c.ids),
    ).allGoldAt5
  } | ${
    quality(
      meta.queries,
      all.map((c) => c.ids),
    ).recallAt5
  } | ${cell(
    even,
    even.map((c) => c.ids),
    baseEven,
  )} | ${cell(
    odd,
    odd.map((c) => c.ids),
    baseOdd,
  )} |`,
);
const rank = (model: LinearRanker, qs: readonly QueryCandidates[], depth = DEPTH) =>
  qs.map((c) => rerankIds(model, c, depth));
for (const [label, model] of PROPAGATION) {
  if (values.only && !label.includes(values.only)) continue;
  const d = quality(live.queries, rank(model, dev));
  const evenTops = rank(model, even);
  const oddTops = rank(model, odd);
  const metaAll = quality(
    [...even, ...odd].map((c) => c.query),
    [...evenTops, ...oddTops],
  ).recallAt5;
  console.log(
    `| round 11: ${label} | ${d.recallAt5} | ${d.allGoldAt5} | ${metaAll} | ${cell(even, evenTops, baseEven)} | ${cell(odd, oddTops, baseOdd)} |`,
  );
}
for (const variant of VARIANTS) {
  if (values.only && !variant.label.includes(values.only)) continue;
  const depth = variant.depth ?? DEPTH;
  const options = { loss: variant.loss, lambda: variant.lambda, use: variant.use };
  const onEven = train(even, options);
  const onOdd = train(odd, options);
  const onBoth = train(all, options);
  const devBoth = quality(live.queries, rank(onBoth, dev, depth));
  const devEven = quality(live.queries, rank(onEven, dev, depth));
  const devOdd = quality(live.queries, rank(onOdd, dev, depth));
  const evenTops = rank(onOdd, even, depth);
  const oddTops = rank(onEven, odd, depth);
  const metaAll = quality(
    [...even, ...odd].map((c) => c.query),
    [...evenTops, ...oddTops],
  ).recallAt5;
  console.log(
    `| round 11: ${variant.label} | ${devBoth.recallAt5} | ${devBoth.allGoldAt5} | ${metaAll} | ` +
      `${cell(even, evenTops, baseEven)} | ${cell(odd, oddTops, baseOdd)} |`,
  );
  console.log(
    `    dev with the one-half models: learned on even ${devEven.recallAt5} / ${devEven.allGoldAt5}, on odd ` +
      `${devOdd.recallAt5} / ${devOdd.allGoldAt5}; in-sample: even ${cell(even, rank(onEven, even, depth), baseEven)}, ` +
      `odd ${cell(odd, rank(onOdd, odd, depth), baseOdd)}; training loss ${meanLoss(onBoth, all, variant.loss).toFixed(4)}` +
      `\n    weights (both halves): ${weightsOf(onBoth)}`,
  );
}
