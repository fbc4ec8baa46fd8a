// The ranking as it stood before each round of issue #23 that changed it, for the benches that measure a round
// against what came before it. Each is the default with that round's change, and every later one, turned off.
import { DEFAULT_TUNING, type IndexTuning } from '../../src/search/tool-index';

/** Before round 7's prerequisite tools: round 4's default. */
export const BEFORE_ROUND_7: IndexTuning = { ...DEFAULT_TUNING, prerequisiteWeight: 0 };
/** Before round 4's semantic re-ranking: round 3's default. */
export const BEFORE_ROUND_4: IndexTuning = { ...BEFORE_ROUND_7, semanticWeight: 0 };
/** Before round 3's catalog co-occurrence: round 2's default. */
export const BEFORE_ROUND_3: IndexTuning = { ...BEFORE_ROUND_4, cooccurrenceTerms: 0 };
/** Before round 2's term proximity and query-term frequency: what round 1 measured against. */
export const BEFORE_ROUND_2: IndexTuning = { ...BEFORE_ROUND_3, proximityWeight: 0, repeatWeight: 0 };
