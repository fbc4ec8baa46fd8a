// npm run bench [-- --only bundle,cold-start,long-threads,storage,tool-calls,tool-search,tool-intake,index-typing,servers-panel,memory,message-search,thread-list,prompt-cache,long-compaction,programmatic] [--strict]
// Builds the app and the bench pages, runs every figure (each a module of figures/), prints one table of medians
// beside baselines measured in the same run, and writes it to test-results/bench/latest.md and latest.json.
// --strict exits 1 when a figure is over its budget. Not part of `npm test`: timings are never asserted in tests.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { buildAll, ROOT, serveBuilds } from './builds';
import { measureBundle } from './figures/bundle';
import { measureColdStart } from './figures/cold-start';
import { measureLongThreadCompaction } from './figures/long-thread-compaction';
import { measureIndexTyping } from './figures/index-typing';
import { measureLongThreads } from './figures/long-threads';
import { measureServersPanel } from './figures/servers-panel';
import { measureMemory } from './figures/memory';
import { measureMessageSearch } from './figures/message-search';
import { measurePromptCache } from './figures/prompt-cache';
import { measureProgrammatic } from './figures/programmatic';
import { measureStorage } from './figures/storage';
import { measureToolCalls } from './figures/tool-calls';
import { measureToolIntake } from './figures/tool-intake';
import { measureToolSearch } from './figures/tool-search';
import { measureThreadList } from './figures/thread-list';
import { markdownTable, ratioOf, textTable, verdict, type Row } from './report';

const FIGURES = [
  'bundle',
  'cold-start',
  'long-threads',
  'storage',
  'tool-calls',
  'tool-search',
  'tool-intake',
  'index-typing',
  'servers-panel',
  'memory',
  'message-search',
  'thread-list',
  'prompt-cache',
  'long-compaction',
  'programmatic',
] as const;
type Figure = (typeof FIGURES)[number];

const { values } = parseArgs({ options: { only: { type: 'string' }, strict: { type: 'boolean', default: false } } });
const only = values.only ? values.only.split(',').map((name) => name.trim()) : [...FIGURES];
const unknown = only.filter((name) => !FIGURES.includes(name as Figure));
if (unknown.length > 0) {
  console.error(`unknown figure(s): ${unknown.join(', ')}; known: ${FIGURES.join(', ')}`);
  process.exit(2);
}
const wanted = (figure: Figure) => only.includes(figure);

/**
 * A figure that hangs (a browser that stops answering) is reported as failed after this long; the longest, typing
 * while 10k tools arrive (30 page loads), takes about 6 minutes on a busy 2-core machine.
 */
const STEP_TIMEOUT_MS = 600_000;
const rows: Row[] = [];
const failures: string[] = [];
const started = performance.now();
/** Runs one figure; a figure that fails is reported and the others still run. */
async function step(name: string, run: () => Promise<Row[]> | Row[]): Promise<void> {
  const start = performance.now();
  process.stderr.write(`- ${name}… `);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no result within ${STEP_TIMEOUT_MS / 1000} s`)), STEP_TIMEOUT_MS);
  });
  try {
    rows.push(...(await Promise.race([Promise.resolve(run()), timeout])));
    process.stderr.write(`${((performance.now() - start) / 1000).toFixed(1)} s\n`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    failures.push(`${name}: ${message}`);
    process.stderr.write(`FAILED: ${message}\n`);
  } finally {
    clearTimeout(timer);
  }
}

const needsBrowser = (
  [
    'cold-start',
    'long-threads',
    'storage',
    'index-typing',
    'servers-panel',
    'memory',
    'message-search',
    'thread-list',
  ] as const
).some(wanted);
if (wanted('bundle') || needsBrowser) await step('build (app, bench pages)', async () => (await buildAll(), []));
if (wanted('bundle')) await step('bundle', measureBundle);
if (needsBrowser) {
  const served = await serveBuilds();
  try {
    if (wanted('cold-start')) await step('cold start', () => measureColdStart(served.url));
    if (wanted('long-threads')) await step('long threads', () => measureLongThreads(served.url));
    if (wanted('storage')) await step('storage', () => measureStorage(served.url));
    if (wanted('index-typing')) await step('typing while 10k tools are indexed', () => measureIndexTyping(served.url));
    if (wanted('servers-panel')) await step('Servers panel with 10k tools', () => measureServersPanel(served.url));
    if (wanted('memory')) await step('memory', () => measureMemory(served.url));
    if (wanted('message-search')) await step('message search', () => measureMessageSearch(served.url));
    if (wanted('thread-list')) await step('400 and 2,000 threads', () => measureThreadList(served.url));
  } finally {
    await served.close();
  }
}
if (wanted('tool-calls')) await step('tool calls', () => measureToolCalls());
if (wanted('tool-search')) await step('tool search', measureToolSearch);
if (wanted('tool-intake')) await step('tool intake', measureToolIntake);
if (wanted('prompt-cache')) await step('prompt cache', measurePromptCache);
if (wanted('long-compaction')) await step('long thread compaction', () => measureLongThreadCompaction());
if (wanted('programmatic')) await step('programmatic tool calling', measureProgrammatic);

const over = rows.filter((row) => verdict(row) === 'OVER');
const machine = `${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), Node ${process.version}, ${process.platform}`;
const when = new Date().toISOString();
console.log(`\n${textTable(rows)}\n`);
console.log(
  `${over.length === 0 ? 'All figures within budget.' : `${over.length} over budget: ${over.map((row) => row.figure).join('; ')}.`} ${((performance.now() - started) / 1000).toFixed(0)} s on ${machine}.`,
);

const dir = join(ROOT, 'test-results/bench');
await mkdir(dir, { recursive: true });
const failed = failures.length > 0 ? `\n\nNot measured:\n${failures.map((line) => `- ${line}`).join('\n')}` : '';
await writeFile(join(dir, 'latest.md'), `# npm run bench, ${when}\n\n${machine}\n\n${markdownTable(rows)}${failed}\n`);
await writeFile(
  join(dir, 'latest.json'),
  `${JSON.stringify({ when, machine, rows: rows.map((row) => ({ ...row, ratio: ratioOf(row) ?? null, status: verdict(row) })), failures }, null, 2)}\n`,
);
console.log('Written to test-results/bench/latest.md and latest.json.');
if (failures.length > 0) {
  console.error(`\nFigures that could not be measured:\n${failures.map((line) => `- ${line}`).join('\n')}`);
  process.exitCode = 1;
}
if (values.strict && over.length > 0) process.exitCode = 1;
// A figure that timed out may still hold a browser or a server open; the run is over either way (Playwright closes its browsers on exit).
process.exit();
