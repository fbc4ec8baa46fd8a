// npx tsx test/bench/round3-candidates.ts [--data ../shared/data/toolsearch] [--only label]
// Issue #23, round 3: general ranking candidates against the default ranking, measured as search-candidates.ts does
// (LiveMCPBench dev, and MetaTool recall@5 on both halves of its tools with the queries that entered (+) or left (−)
// the top 5 against the ranking before round 3, in the same run).
import { parseArgs } from 'node:util';
import type { IndexTuning } from '../../src/search/tool-index';
import { readQualitySets } from './dataset';
import { printCandidateRows } from './halves';
import { BEFORE_ROUND_3, BEFORE_ROUND_4 } from './round-baselines';

const { values } = parseArgs({
  options: { data: { type: 'string', default: '../shared/data/toolsearch' }, only: { type: 'string' } },
});
const sets = readQualitySets(values.data);

/** Round 3's candidates: a label and the change to the default ranking (which keeps catalog co-occurrence). */
export const ROUND_3: readonly [string, Partial<IndexTuning>][] = [
  ['before round 3', { cooccurrenceTerms: 0 }],
  ['default (kept: co-occurrence, 3 words x0.3 from the rarest 6 query words, at most 10)', {}],
  ['co-occurrence, 3 words x0.3, no caps', { cooccurrenceWords: Infinity, cooccurrenceMax: Infinity }],
  ['co-occurrence, 2 words x0.3', { cooccurrenceTerms: 2 }],
  ['co-occurrence, 4 words x0.3', { cooccurrenceTerms: 4 }],
  ['co-occurrence, 3 words x0.2', { cooccurrenceWeight: 0.2 }],
  ['co-occurrence, 3 words x0.4', { cooccurrenceWeight: 0.4 }],
  ['co-occurrence, 5 words x0.5', { cooccurrenceTerms: 5, cooccurrenceWeight: 0.5 }],
  ['co-occurrence, query words in <= 2% of tools', { cooccurrenceMaxShare: 0.02 }],
  ['co-occurrence, query words in <= 10% of tools', { cooccurrenceMaxShare: 0.1 }],
  ['co-occurrence, from the rarest 4 words', { cooccurrenceWords: 4 }],
  ['co-occurrence, at most 6 words in all', { cooccurrenceMax: 6 }],
  ['kept + server relevance x0.75', { serverWeight: 0.75 }],
];

// Round 3's candidates change its default (the ranking before round 4); +/− count against the ranking before round 3.
printCandidateRows(sets, [[BEFORE_ROUND_4, ROUND_3, BEFORE_ROUND_3]], values.only);
