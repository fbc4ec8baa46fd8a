// npx tsx test/bench/round4-candidates.ts [--data ../shared/data/toolsearch]
// Issue #23, round 4: semantic re-ranking by general-purpose word vectors (src/search/semantic.ts, the vectors of
// public/search/word-vectors.bin), measured as the rounds before: LiveMCPBench dev, and MetaTool recall@5 on both
// halves of its tools with the queries that entered (+) or left (−) the top 5 against the ranking before round 4.
// The last rows do the same with no hand-written vocabulary at all, against that vocabulary-free ranking.
import { parseArgs } from 'node:util';
import type { IndexTuning } from '../../src/search/tool-index';
import { readQualitySets } from './dataset';
import { printCandidateRows, type CandidateGroup } from './halves';
import { BEFORE_ROUND_4 } from './round-baselines';

const { values } = parseArgs({ options: { data: { type: 'string', default: '../shared/data/toolsearch' } } });
const sets = readQualitySets(values.data);

const BEFORE = BEFORE_ROUND_4;
const NO_LISTS: IndexTuning = { ...BEFORE, genericWeight: 1, relatedWeight: 0 };
const GROUPS: readonly CandidateGroup[] = [
  [
    BEFORE,
    [
      ['before round 4 (round 3 default)', {}],
      ['semantic re-ranking of the best 20, x0.1', { semanticWeight: 0.1 }],
      ['semantic re-ranking of the best 20, x0.15 (the default now)', { semanticWeight: 0.15 }],
      ['semantic re-ranking of the best 20, x0.2', { semanticWeight: 0.2 }],
      ['semantic re-ranking of the best 20, x0.3', { semanticWeight: 0.3 }],
    ],
  ],
  [
    NO_LISTS,
    [
      ['no hand-written vocabulary', {}],
      ['no hand-written vocabulary + semantic x0.15', { semanticWeight: 0.15 }],
      ['no hand-written vocabulary + semantic x0.3', { semanticWeight: 0.3 }],
    ],
  ],
];

printCandidateRows(sets, GROUPS);
