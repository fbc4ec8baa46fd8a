// npx tsx test/bench/round7-candidates.ts [--data ../shared/data/toolsearch]
// Issue #23, round 7: prerequisite tools (src/search/prerequisites.ts), measured as the rounds before: LiveMCPBench
// dev, and MetaTool recall@5 on both halves of its tools with the queries that entered (+) or left (−) the top 5
// against the ranking before round 7. MetaTool's tools have no input schemas, so the rule cannot act there; the first
// line says how many tools of each set have a prerequisite at all.
import { parseArgs } from 'node:util';
import { isPrerequisite } from '../../src/search/prerequisites';
import { toolDocument } from '../../src/search/tool-document';
import type { IndexTuning } from '../../src/search/tool-index';
import { readQualitySets, type BenchSet } from './dataset';
import { groupByServer } from './evaluate';
import { printCandidateRows, type CandidateGroup } from './halves';
import { BEFORE_ROUND_7 } from './round-baselines';

const { values } = parseArgs({ options: { data: { type: 'string', default: '../shared/data/toolsearch' } } });
const sets = readQualitySets(values.data);
const { live, meta } = sets;

/** How many tools of a set have at least one prerequisite among their server's tools. */
function withPrerequisites(set: BenchSet): number {
  let count = 0;
  for (const tools of groupByServer(set.tools).values()) {
    const docs = tools.map((tool, i) => toolDocument(i, tool));
    for (const doc of docs) if (docs.some((sibling) => isPrerequisite(doc, sibling))) count++;
  }
  return count;
}
console.log(
  `tools with a prerequisite: dev ${withPrerequisites(live)} of ${live.tools.length}, ` +
    `MetaTool ${withPrerequisites(meta)} of ${meta.tools.length}`,
);

const BEFORE = BEFORE_ROUND_7;
const NO_LISTS: IndexTuning = { ...BEFORE, genericWeight: 1, relatedWeight: 0, semanticWeight: 0 };
const GROUPS: readonly CandidateGroup[] = [
  [
    BEFORE,
    [
      ['before round 7 (round 4 default)', {}],
      ...[0.5, 0.6, 0.65, 0.7, 0.75, 0.8].map((w): [string, Partial<IndexTuning>] => [
        `prerequisites of the best 3 rise to x${w} of its score${w === 0.65 ? ' (the default now)' : ''}`,
        { prerequisiteWeight: w },
      ]),
      ['same, x0.65, of the best 1', { prerequisiteWeight: 0.65, prerequisiteFrom: 1 }],
      ['same, x0.65, of the best 10', { prerequisiteWeight: 0.65, prerequisiteFrom: 10 }],
      ...[1, 2, 5, 1000].map((n): [string, Partial<IndexTuning>] => [
        `same, x0.65, at most ${n} per tool (default 3)`,
        { prerequisiteWeight: 0.65, prerequisitesPerTool: n },
      ]),
    ],
  ],
  [
    NO_LISTS,
    [
      ['no hand-written vocabulary, no word vectors', {}],
      ['same + prerequisites x0.65', { prerequisiteWeight: 0.65 }],
    ],
  ],
];

printCandidateRows(sets, GROUPS);
