// npm run --silent bench:long [-- --variant client|server|refused|all --turns 300 --result-tokens 2500]
// A long tool thread against the contract fake with a 200k window (issue #17 item 4): every request accepted, each
// request's input under the window, the whole thread still stored. Printed beside the input the last request would
// need with nothing compacted (the same run's thread, uncompacted).
import { parseArgs } from 'node:util';
import { runLongThread, WINDOW, type Variant } from './figures/long-thread-compaction';

const { values } = parseArgs({
  options: {
    variant: { type: 'string', default: 'client' },
    turns: { type: 'string', default: '300' },
    'result-tokens': { type: 'string', default: '2500' },
  },
});
const variants: Variant[] = values.variant === 'all' ? ['client', 'server', 'refused'] : [values.variant as Variant];
let failed = false;
for (const variant of variants) {
  const f = await runLongThread(variant, Number(values.turns), Number(values['result-tokens']));
  const ok = f.refused === 0 && f.maxInputTokens < WINDOW && f.storedMessages === f.expectedMessages;
  failed ||= !ok;
  console.log(
    `\n${variant}: ${f.turns} turns, ${f.requests} requests, ${f.seconds.toFixed(0)} s  ${ok ? 'OK' : 'FAILED'}`,
  );
  console.log(
    `  requests refused                 ${f.refused}${variant === 'refused' ? ' (+1 beta refusal, answered with a summary)' : ''}`,
  );
  console.log(
    `  input tokens per request         max ${f.maxInputTokens}, median ${f.medianInputTokens} (window ${WINDOW})`,
  );
  console.log(
    `  uncompacted, the last would be   ${f.withoutCompactionTokens} tokens (${(f.withoutCompactionTokens / WINDOW).toFixed(2)}x the window)`,
  );
  console.log(
    `  compactions                      ${f.compactions.cleared} cleared, ${f.compactions.client} summaries by the app, ${f.compactions.server} by the API; notes ${f.notes}`,
  );
  console.log(`  messages stored                  ${f.storedMessages} of ${f.expectedMessages}`);
  console.log(`  cost of the thread               $${f.costUsd.toFixed(2)}`);
}
process.exit(failed ? 1 : 0);
