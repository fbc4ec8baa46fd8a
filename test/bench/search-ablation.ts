// npx tsx test/bench/search-ablation.ts [--data ../shared/data/toolsearch]
// How much of the tool-search quality comes from hand-written vocabulary, and whether it carries over. MetaTool's
// tools, sorted by id, are split in two: the misses of the even ones ("read") were read while writing the generic
// words (query-terms.ts) and the broader words (broader-terms.ts); the odd ones ("held out") were not looked at.
// A gain that shows only on the read half is fitted to its wording. Prints one line per variant of the ranking.
import { parseArgs } from 'node:util';
import { DEFAULT_TUNING, type IndexTuning } from '../../src/search/tool-index';
import { readQualitySets, type BenchQuery } from './dataset';
import { rankWithApp } from './evaluate';
import { quality } from './metrics';

const { values } = parseArgs({ options: { data: { type: 'string', default: '../shared/data/toolsearch' } } });
const { live, meta, isEven: isReadHalf } = readQualitySets(values.data);

const VARIANTS: readonly [string, Partial<IndexTuning>][] = [
  ['default', {}],
  ['generic words at full weight', { genericWeight: 1 }],
  ['no broader words', { broaderWords: false }],
  ['neither (the earlier vocabulary)', { genericWeight: 1, broaderWords: false }],
  ['no hand-written vocabulary at all', { genericWeight: 1, relatedWeight: 0 }],
];

function recallOn(
  queries: readonly BenchQuery[],
  tops: readonly string[][],
  keep: (q: BenchQuery) => boolean,
): number | undefined {
  const kept = queries.flatMap((q, i) => (keep(q) ? [[q, tops[i]!] as const] : []));
  return quality(
    kept.map(([q]) => q),
    kept.map(([, top]) => top),
  ).recallAt5;
}

for (const [label, change] of VARIANTS) {
  const tuning: IndexTuning = { ...DEFAULT_TUNING, ...change };
  const liveQuality = quality(live.queries, rankWithApp(live.tools, live.queries, 10, tuning));
  const metaTops = rankWithApp(meta.tools, meta.queries, 10, tuning);
  const gold = (q: BenchQuery): string => q.expectedTools[0]?.[0] ?? '';
  const metaAll = recallOn(meta.queries, metaTops, () => true);
  const metaRead = recallOn(meta.queries, metaTops, (q) => isReadHalf.get(gold(q)) === true);
  const metaHeldOut = recallOn(meta.queries, metaTops, (q) => isReadHalf.get(gold(q)) === false);
  console.log(
    `${label.padEnd(36)} LiveMCPBench r@5 ${liveQuality.recallAt5} allGold@5 ${liveQuality.allGoldAt5} | ` +
      `MetaTool r@5 ${metaAll} (read half ${metaRead}, held-out half ${metaHeldOut})`,
  );
}
