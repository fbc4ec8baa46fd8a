// Runs the official MCP conformance suite (it needs Node 22, fetched from the npm registry as `node@22`)
// against test/conformance/client.ts. Scenario servers are pinned to 127.0.0.1 by a preload.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const preload = fileURLToPath(new URL('../fixtures/loopback-only.cjs', import.meta.url));
const runner = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));
const client = 'node --import tsx test/conformance/client.ts';

// The OAuth scenarios of the core suite come with OAuth support; until then the non-auth core scenarios run one by one.
const SCENARIOS = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];

let failed = 0;
for (const scenario of SCENARIOS) {
  const result = spawnSync('npx', ['-y', 'node@22', runner, 'client', '--command', client, '--scenario', scenario], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: `--require ${preload}` },
  });
  if (result.status !== 0) {
    failed++;
    console.error(`conformance: scenario ${scenario} FAILED (exit ${result.status})`);
  }
}
const passed = SCENARIOS.length - failed;
console.log(`\nconformance scenarios: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
