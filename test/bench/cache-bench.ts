// npm run --silent bench:cache [-- --questions 5 --result-tokens 2500]
// The prompt-cache read share of a scripted tool thread as the app sends it (the turn runner through the SDK adapter,
// so the app's own breakpoints), measured by the contract fake's cache accounting (test/fakes/fake-anthropic-cache.ts):
// each question needs one tool whose result is about `result-tokens` tokens, so a question is two requests. Printed
// beside the ideal (every request reads the prefix it shares with the request before it) and the issue's target;
// the baseline is the same requests without caching (1.000x). Then each tool-search mode runs a three-question thread
// with 40 more tools, deferred: every request must be one the contract fake accepts. Last, the first thread again with
// an MCP App's model context updated before each question.
import '../setup-unit';
import { parseArgs } from 'node:util';
import { runAppContextThread, runReportThread, type CacheFigures } from './figures/prompt-cache';

const { values } = parseArgs({
  options: { questions: { type: 'string', default: '5' }, 'result-tokens': { type: 'string', default: '2500' } },
});
const questions = Number(values.questions);
const resultChars = Number(values['result-tokens']) * 4;
/** Issue #17's targets: five questions >= 0.78 read share and <= 0.35x cost; twenty questions >= 0.93. */
const shareTarget = questions >= 20 ? 0.93 : 0.78;
const costTarget = 0.35;

const f = (n: number) => n.toFixed(3);
const mark = (isMet: boolean) => (isMet ? 'ok' : 'MISSED');
const thread: CacheFigures = await runReportThread({ questions, resultChars });
console.log(`${questions} questions, ~${values['result-tokens']}-token results, default settings`);
console.log(`requests                ${thread.requests} (${thread.accepted} accepted)`);
console.log(`input tokens (all)      ${thread.total}`);
console.log(`  uncached / read / written  ${thread.uncached} / ${thread.read} / ${thread.written}`);
console.log(
  `cache read share        ${f(thread.share)}   (ideal ${f(thread.idealShare)}, target >= ${shareTarget}: ${mark(thread.share >= shareTarget)})`,
);
console.log(
  `input cost vs no cache  ${f(thread.cost)}x  (ideal ${f(thread.idealCost)}x, baseline 1.000x${questions < 20 ? `, target <= ${costTarget}x: ${mark(thread.cost <= costTarget)}` : ''})`,
);

console.log('\nmode        requests accepted  read share (ideal)  cost');
let isAllAccepted = thread.accepted === thread.requests;
for (const mode of ['client', 'anthropic', 'server'] as const) {
  const run = await runReportThread({ questions: 3, resultChars, mode, extraTools: 40 });
  isAllAccepted &&= run.accepted === run.requests;
  console.log(
    `${mode.padEnd(11)} ${String(run.requests).padStart(8)} ${String(run.accepted).padStart(8)}  ${f(run.share)} (${f(run.idealShare)})     ${f(run.cost)}x`,
  );
}
// An MCP App updating its model context before each question: what the update costs the cached conversation.
const withApp = await runAppContextThread({ turns: questions, resultChars });
isAllAccepted &&= withApp.figures.accepted === withApp.figures.requests;
console.log(
  `\n${questions} questions, an app's context updated before each (read share of the turn's first request, turn's cache writes)`,
);
for (const [i, turn] of withApp.turns.entries())
  console.log(
    `turn ${String(i + 1).padStart(2)}  read share ${f(turn.readShare)}  written ${String(turn.written).padStart(6)} tok`,
  );
console.log(
  `all requests: read share ${f(withApp.figures.share)} (ideal ${f(withApp.figures.idealShare)}), input cost ${f(withApp.figures.cost)}x, written ${withApp.figures.written} tok`,
);
if (!isAllAccepted) {
  console.error('Some requests were refused by the contract fake.');
  process.exitCode = 1;
}
