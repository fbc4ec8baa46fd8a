// npm run test:stress [-- --runs 3] [-- <vitest filters>]
// The unit suite while two busy loops (child processes spinning) occupy both cores of CI's 2-core machine: a test
// that leans on a fixed wall-clock wait or a short timeout fails here first. The loops are always stopped, also when
// the suite fails or this script is interrupted; each run prints its duration and its ten slowest tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { busyLoopSource, slowestTests, summarize, type VitestJsonReport } from './report';

const BUSY_LOOPS = 2;
const VITEST = join(import.meta.dirname, '../../node_modules/vitest/vitest.mjs');

const { values, positionals } = parseArgs({
  options: { runs: { type: 'string', default: '1' } },
  allowPositionals: true,
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`--runs must be a positive whole number, not ${values.runs}`);
  process.exit(2);
}

const loops: ChildProcess[] = [];
let suite: ChildProcess | undefined;
function stopLoops(): void {
  for (const loop of loops.splice(0)) loop.kill('SIGKILL');
}
// Never leave a spinning core behind: stop the loops on every way out of this process (and the suite on a signal).
process.once('exit', stopLoops);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.once(signal, () => {
    stopLoops();
    suite?.kill(signal);
    process.exit(130);
  });

function startLoops(): void {
  for (let i = 0; i < BUSY_LOOPS; i++)
    loops.push(spawn(process.execPath, ['-e', busyLoopSource(process.pid)], { stdio: 'ignore' }));
}

/** Runs the unit suite once under load; resolves with vitest's exit code and its JSON report (if written). */
async function runSuite(outputFile: string): Promise<{ code: number; report?: VitestJsonReport }> {
  const args = [VITEST, 'run', '--project', 'unit', '--reporter=default', '--reporter=json'];
  const child = spawn(process.execPath, [...args, `--outputFile.json=${outputFile}`, ...positionals], {
    stdio: 'inherit',
  });
  suite = child;
  const code = await new Promise<number>((resolve) => child.once('exit', (status) => resolve(status ?? 1)));
  suite = undefined;
  const report = await readFile(outputFile, 'utf8').then(
    (text) => JSON.parse(text) as VitestJsonReport,
    () => undefined,
  );
  return { code, report };
}

const dir = await mkdtemp(join(tmpdir(), 'test-stress-'));
const lines: string[] = [];
let failed = 0;
try {
  for (let run = 1; run <= runs; run++) {
    const loadBefore = loadavg()[0]!;
    startLoops();
    const started = performance.now();
    let result: Awaited<ReturnType<typeof runSuite>>;
    try {
      result = await runSuite(join(dir, `run-${run}.json`));
    } finally {
      stopLoops();
    }
    const seconds = (performance.now() - started) / 1000;
    if (result.code !== 0) failed++;
    const head = `run ${run}/${runs}: ${result.code === 0 ? 'passed' : `FAILED (exit ${result.code})`} in ${seconds.toFixed(1)} s`;
    const load = `load average ${loadBefore.toFixed(2)} before the loops, ${loadavg()[0]!.toFixed(2)} at the end; ${cpus().length} cores, ${BUSY_LOOPS} busy loops`;
    lines.push(head, `  ${load}`, ...(result.report ? summarize(result.report, slowestTests(result.report, 10)) : []));
    console.log(['', ...lines.slice(lines.indexOf(head))].join('\n'));
  }
} finally {
  stopLoops();
  await rm(dir, { recursive: true, force: true });
}
if (runs > 1) console.log(['', `== ${runs - failed} of ${runs} runs passed`, ...lines].join('\n'));
process.exitCode = failed === 0 ? 0 : 1;
