// Runs the official MCP conformance runner (it needs Node 22, fetched from the npm registry as `node@22`)
// against test/conformance/client.ts, with no expected-failures file: any failing check fails the run.
// Scenarios: every client scenario of the dated spec versions that `conformance list --client` names
// (initialize, tools, elicitation defaults, SSE retry and every auth scenario of 2025-03-26, 2025-06-18 and
// 2025-11-25); draft and extension scenarios are not part of a released spec and are left out. Scenario
// servers are pinned to 127.0.0.1. `npm run conformance -- NAME…` runs only the named scenarios.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));
const preload = fileURLToPath(new URL('../fixtures/loopback-only.cjs', import.meta.url));
const runner = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url),
);
const outDir = 'test-results/conformance-client';
const client = `node ${outDir}/client.mjs`;
/** Scenarios that measure timing (SEP-1699's retry delay, 200 ms of tolerance): run alone, never beside others. */
const TIMING_SENSITIVE = new Set(['sse-retry']);
/** How many scenarios run at once otherwise (each is a runner, a scenario server and a client process). */
const PARALLEL = 4;

function runConformance(args: string[], stdio: 'inherit' | 'pipe') {
  return spawnSync('npx', ['-y', 'node@22', runner, ...args], {
    cwd: root,
    stdio,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: `--require ${preload}` },
  });
}

/** The client scenarios of released spec versions, as the runner lists them ("  - name [versions]"). */
function listScenarios(): string[] {
  const listed = runConformance(['list', '--client'], 'pipe');
  if (listed.status !== 0) throw new Error(`conformance list failed: ${listed.stderr}`);
  const scenarios = [...listed.stdout.matchAll(/^\s*-\s+(\S+)\s+\[([^\]]+)\]/gm)]
    .filter(([, , versions]) => versions!.split(',').some((version) => /^\d{4}-\d{2}-\d{2}$/.test(version.trim())))
    .map(([, name]) => name!);
  if (scenarios.length === 0) throw new Error(`conformance list named no client scenarios:\n${listed.stdout}`);
  return scenarios;
}

interface ScenarioResult {
  scenario: string;
  isPassed: boolean;
  summary: string;
  output: string;
}

/**
 * Runs one scenario in a child runner. It passes only when the runner exits 0 and its tally says no check
 * failed and none warned (as the suite mode counts a warning against a scenario).
 */
function runScenario(scenario: string): Promise<ScenarioResult> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['-y', 'node@22', runner, 'client', '--command', client, '--scenario', scenario], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: `--require ${preload}` },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (status) => {
      const tally = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output);
      const isPassed = status === 0 && tally !== null && tally[3] === '0' && tally[4] === '0' && tally[1] === tally[2];
      const summary = tally ? tally[0] : `no result tally (exit ${status})`;
      resolve({ scenario, isPassed, summary, output });
    });
  });
}

// A prebuilt client (our TypeScript compiled once, packages imported from node_modules) keeps each
// scenario's processes light.
await build({
  root,
  configFile: false,
  publicDir: false,
  logLevel: 'warn',
  build: {
    ssr: 'test/conformance/client.ts',
    outDir,
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rollupOptions: { output: { entryFileNames: 'client.mjs' } },
  },
});

const requested = process.argv.slice(2);
const scenarios = requested.length > 0 ? requested : listScenarios();
const alone = scenarios.filter((scenario) => TIMING_SENSITIVE.has(scenario));
const together = scenarios.filter((scenario) => !TIMING_SENSITIVE.has(scenario));
const results: ScenarioResult[] = [];
const report = (result: ScenarioResult) => {
  results.push(result);
  console.log(`\n== ${result.scenario}: ${result.isPassed ? 'passed' : 'FAILED'} (${result.summary})`);
  console.log(
    result.output
      .split('\n')
      .filter((line) => !line.includes('nodedir'))
      .join('\n')
      .trim(),
  );
};

for (const scenario of alone) report(await runScenario(scenario));
const queue = [...together];
await Promise.all(
  Array.from({ length: PARALLEL }, async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) report(await runScenario(next));
  }),
);

const failed = results.filter((result) => !result.isPassed).map((result) => result.scenario);
console.log(`\nconformance scenarios:`);
console.log(`conformance: ${results.length - failed.length} passed, ${failed.length} failed`);
if (failed.length > 0) console.error(`failed scenarios: ${failed.join(', ')}`);
process.exit(failed.length === 0 ? 0 : 1);
