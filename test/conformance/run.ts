// Runs the official MCP conformance runner (it needs Node 22, fetched from the npm registry as `node@22`)
// against test/conformance/client.ts, with no expected-failures file: any failing check fails the run.
// Suites: core (initialize, tools, elicitation defaults, SSE retry and every auth scenario of 2025-06-18
// and 2025-11-25) and backcompat (the 2025-03-26 auth fallbacks). Scenario servers are pinned to 127.0.0.1.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));
const preload = fileURLToPath(new URL('../fixtures/loopback-only.cjs', import.meta.url));
const runner = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));
const outDir = 'test-results/conformance-client';
const client = `node ${outDir}/client.mjs`;
const SUITES = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['core', 'backcompat'];

// The runner starts every scenario of a suite at once; a prebuilt client (our TypeScript compiled once,
// packages imported from node_modules) keeps those processes light enough for the SSE retry timing checks.
await build({
  root,
  configFile: false,
  publicDir: false,
  logLevel: 'warn',
  build: { ssr: 'test/conformance/client.ts', outDir, emptyOutDir: true, target: 'node20', minify: false, rollupOptions: { output: { entryFileNames: 'client.mjs' } } },
});

let failed = 0;
for (const suite of SUITES) {
  console.log(`\n== conformance suite: ${suite}`);
  const result = spawnSync('npx', ['-y', 'node@22', runner, 'client', '--command', client, '--suite', suite], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: `--require ${preload}` },
  });
  if (result.status !== 0) {
    failed++;
    console.error(`conformance: suite ${suite} FAILED (exit ${result.status})`);
  }
}
console.log(`\nconformance suites: ${SUITES.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
