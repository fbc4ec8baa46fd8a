// npx tsx test/bench/tune-cv.ts [--data ../shared/data/toolsearch] [--rounds 3]
// Learned ranking knobs with cross-validation (issue #23, rounds 2 and 3): coordinate ascent on LiveMCPBench dev plus one
// half of MetaTool (its tools sorted by id, even or odd), then scored on the other half it never saw. Both folds run;
// a learned setting is worth keeping only if it beats the default on the held-out half of both folds and on dev.
import { parseArgs } from 'node:util';
import { DEFAULT_TUNING, type IndexTuning } from '../../src/search/tool-index';
import { readQualitySets, type BenchQuery } from './dataset';
import { rankWithApp } from './evaluate';
import { quality } from './metrics';

const { values } = parseArgs({
  options: { data: { type: 'string', default: '../shared/data/toolsearch' }, rounds: { type: 'string', default: '3' } },
});
const { live, meta, isEven } = readQualitySets(values.data);
const half = (q: BenchQuery): 'even' | 'odd' => (isEven.get(q.expectedTools[0]?.[0] ?? '') ? 'even' : 'odd');

interface Scores {
  readonly dev: number;
  readonly devAll: number;
  readonly even: number;
  readonly odd: number;
}

function measure(tuning: IndexTuning): Scores {
  const dev = quality(live.queries, rankWithApp(live.tools, live.queries, 10, tuning));
  const tops = rankWithApp(meta.tools, meta.queries, 10, tuning);
  const on = (which: 'even' | 'odd') => {
    const kept = meta.queries.flatMap((q, i) => (half(q) === which ? [[q, tops[i]!] as const] : []));
    return quality(
      kept.map(([q]) => q),
      kept.map(([, t]) => t),
    ).recallAt5!;
  };
  return { dev: dev.recallAt5!, devAll: dev.allGoldAt5!, even: on('even'), odd: on('odd') };
}

/** Each knob: how to read it and write it back. */
const KNOBS: readonly [string, (t: IndexTuning) => number, (t: IndexTuning, v: number) => IndexTuning][] = [
  ['name', (t) => t.boosts.name, (t, v) => ({ ...t, boosts: { ...t.boosts, name: v } })],
  ['server', (t) => t.boosts.server, (t, v) => ({ ...t, boosts: { ...t.boosts, server: v } })],
  ['description', (t) => t.boosts.description, (t, v) => ({ ...t, boosts: { ...t.boosts, description: v } })],
  ['params', (t) => t.boosts.params, (t, v) => ({ ...t, boosts: { ...t.boosts, params: v } })],
  ['k', (t) => t.bm25.k, (t, v) => ({ ...t, bm25: { ...t.bm25, k: v } })],
  ['b', (t) => t.bm25.b, (t, v) => ({ ...t, bm25: { ...t.bm25, b: Math.min(1, v) } })],
  ['coordination', (t) => t.coordination, (t, v) => ({ ...t, coordination: v })],
  ['serverWeight', (t) => t.serverWeight, (t, v) => ({ ...t, serverWeight: v })],
  ['relatedWeight', (t) => t.relatedWeight, (t, v) => ({ ...t, relatedWeight: Math.min(1, v) })],
  ['genericWeight', (t) => t.genericWeight, (t, v) => ({ ...t, genericWeight: Math.min(1, v) })],
  // Round 3: catalog co-occurrence.
  ['cooccurrenceWeight', (t) => t.cooccurrenceWeight, (t, v) => ({ ...t, cooccurrenceWeight: v })],
  ['cooccurrenceMaxShare', (t) => t.cooccurrenceMaxShare, (t, v) => ({ ...t, cooccurrenceMaxShare: Math.min(1, v) })],
];

function learn(fold: 'even' | 'odd'): { tuning: IndexTuning; scores: Scores } {
  const objective = (s: Scores) => s.dev + s.devAll + 2 * s[fold];
  let tuning = DEFAULT_TUNING;
  let scores = measure(tuning);
  for (let round = 0; round < Number(values.rounds); round++) {
    let moved = false;
    for (const [name, get, set] of KNOBS) {
      for (const factor of [0.67, 1.5]) {
        const candidate = set(tuning, Number((get(tuning) * factor).toFixed(3)));
        const s = measure(candidate);
        if (objective(s) > objective(scores) + 1e-9) {
          [tuning, scores, moved] = [candidate, s, true];
          console.error(`  ${fold} round ${round}: ${name} → ${get(candidate)} (${JSON.stringify(s)})`);
        }
      }
    }
    if (!moved) break;
  }
  return { tuning, scores };
}

const base = measure(DEFAULT_TUNING);
console.log(`default: ${JSON.stringify(base)}`);
for (const fold of ['even', 'odd'] as const) {
  const { tuning, scores } = learn(fold);
  const heldOut = fold === 'even' ? 'odd' : 'even';
  const { dropWords: _d, genericWords: _g, ...knobs } = tuning;
  console.log(
    `learned on dev + ${fold}: dev r@5 ${scores.dev} allGold@5 ${scores.devAll}, ${fold} ${scores[fold]}, ` +
      `held-out ${heldOut} ${scores[heldOut]} (default ${base[heldOut]})\n  ${JSON.stringify(knobs)}`,
  );
}
