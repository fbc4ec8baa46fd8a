// npx tsx test/bench/search-candidates.ts [--data ../shared/data/toolsearch] [--only label]
// The ranking candidates of issue #23, each measured the same way: LiveMCPBench dev recall@5 and allGold@5, and
// MetaTool recall@5 on both halves of its tools (sorted ids, even and odd). A candidate is kept only when it wins on
// dev and on both MetaTool halves; the README's table is this script's output.
import { parseArgs } from 'node:util';
import { DEFAULT_TUNING, type IndexTuning } from '../../src/search/tool-index';
import { readQualitySets } from './dataset';
import { printCandidateRows } from './halves';
import { BEFORE_ROUND_2, BEFORE_ROUND_3 } from './round-baselines';

const { values } = parseArgs({
  options: { data: { type: 'string', default: '../shared/data/toolsearch' }, only: { type: 'string' } },
});
const sets = readQualitySets(values.data);

/** Round 1's candidates: a label and the change to the ranking before round 2. */
const ROUND_1: readonly [string, Partial<IndexTuning>][] = [
  ['ranking before round 2', {}],
  // Field weights and BM25 knobs: the best of 60 random settings scored on dev + the even MetaTool half.
  [
    'field weights learned on dev + even half',
    { boosts: { name: 1, server: 1, description: 1, params: 0.25 }, bm25: { k: 1.2, b: 1, d: 0.25 } },
  ],
  ['no input-schema field', { boosts: { ...DEFAULT_TUNING.boosts, params: 0 } }],
  ['input-schema field at full weight', { boosts: { ...DEFAULT_TUNING.boosts, params: 1.5 } }],
  ['no server-name field', { boosts: { ...DEFAULT_TUNING.boosts, server: 0 } }],
  ['server-name field x2', { boosts: { ...DEFAULT_TUNING.boosts, server: 1 } }],
  ['expansion capped by IDF (df <= 20%)', { relatedMaxShare: 0.2 }],
  ['expansion capped by IDF (df <= 5%)', { relatedMaxShare: 0.05 }],
  ['feedback 5 terms x0.2', { feedbackTerms: 5, feedbackWeight: 0.2 }],
  ['feedback 10 terms x0.3', { feedbackTerms: 10, feedbackWeight: 0.3 }],
  ['feedback 10 terms x0.3, 1 doc', { feedbackTerms: 10, feedbackWeight: 0.3, feedbackDocs: 1 }],
  ['query-term frequency x0.5', { repeatWeight: 0.5 }],
  ['query-term frequency x1', { repeatWeight: 1 }],
  ['coordination 0.25', { coordination: 0.25 }],
  ['coordination 0.75', { coordination: 0.75 }],
  ['server relevance x0.25', { serverWeight: 0.25 }],
  ['server relevance x0.75', { serverWeight: 0.75 }],
  ['server relevance from its best 2', { serverTop: 2 }],
  ['server relevance from its best 5', { serverTop: 5 }],
];

/**
 * Round 2's candidates, as changes to the default ranking (which keeps proximity x0.5 and query-term frequency x0.5).
 * Measured and dropped without their code kept: BM25F, name character 4-grams, the lead sentence counted twice, the
 * server as one document, a lighter stemmer (the README table has their figures).
 */
const ROUND_2: readonly [string, Partial<IndexTuning>][] = [
  ['round 2 default (kept: proximity x0.5 + query-term frequency x0.5)', {}],
  ['proximity x0.5 alone', { repeatWeight: 0 }],
  ['proximity x2 alone', { proximityWeight: 2, repeatWeight: 0 }],
  ['proximity x2 + query-term frequency x0.5', { proximityWeight: 2 }],
  ['kept + server relevance x0.75', { serverWeight: 0.75 }],
];

// Round 1 changed the ranking before round 2; round 2 changed its own default (the ranking before round 3). Both count
// +/− against the ranking before round 2. Rounds 1 and 2 come before round 4's semantic re-ranking and round 7's
// prerequisites: they are off in all of them.
printCandidateRows(
  sets,
  [
    [BEFORE_ROUND_2, ROUND_1],
    [BEFORE_ROUND_3, ROUND_2, BEFORE_ROUND_2],
  ],
  values.only,
);
