// npx tsx test/bench/arrival-ab.ts build <dir> | run <dir> [pages] [--pauses] [--panel]
// An A/B of builds for the typing-while-10k-tools-arrive figure (figures/index-typing.ts), which one run cannot tell
// apart (0.8x-1.8x from run to run): build each variant into its own folder under the project (`build`, with the
// source changed for that variant), then alternate `run`s of the variants, each printing every page's typing p95
// against the same page idle and the pages' figure together. With --panel a run measures opening the Servers panel
// with 10,000 tools instead (figures/servers-panel.ts).
import { parseArgs } from 'node:util';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { pauses: { type: 'boolean', default: false }, panel: { type: 'boolean', default: false } },
});
const [mode, dir, pages = '3'] = positionals;
if ((mode !== 'build' && mode !== 'run') || !dir) {
  console.error('usage: arrival-ab.ts build <dir> | run <dir> [pages] [--pauses] [--panel]');
  process.exit(2);
}
process.env.E2E_OUT_DIR = dir; // Read by builds.ts when it loads.
const { buildAll, serveBuilds } = await import('./builds');
if (mode === 'build') {
  await buildAll();
  process.exit(0);
}
if (values.panel) {
  const { measureServersPanel } = await import('./figures/servers-panel');
  const served = await serveBuilds();
  try {
    for (const row of await measureServersPanel(served.url, Number(pages)))
      console.log(`${dir}: ${row.figure} ${row.app.toFixed(0)} ms against ${row.baseline!.toFixed(0)} ms; ${row.note}`);
  } finally {
    await served.close();
  }
  process.exit(0);
}
const { arrivalTyping, WITH_PAUSES } = await import('./figures/index-typing');
const { median, p95 } = await import('./report');
const served = await serveBuilds();
const during: number[] = [];
const idle: number[] = [];
try {
  const plan = { apiKey: 'sk-ant-bench-typing', threads: [{ title: 'Only thread', messages: 8 }] };
  for (let i = 0; i < Number(pages); i++) {
    const run = await arrivalTyping(served.url, plan, 3000, values.pauses ? WITH_PAUSES : undefined);
    during.push(...run.during.keys);
    idle.push(...run.idle.keys);
    const ratio = p95(run.during.keys) / p95(run.idle.keys);
    console.log(
      `page ${i + 1}: p95 ${p95(run.during.keys).toFixed(1)} ms against ${p95(run.idle.keys).toFixed(1)} ms idle, ${ratio.toFixed(2)}x; last server listed ${run.listedAfter} ms after the last key`,
    );
  }
} finally {
  await served.close();
}
console.log(
  `${dir}${values.pauses ? ' (typing with pauses)' : ''}: p95 ${p95(during).toFixed(1)} ms against ${p95(idle).toFixed(1)} ms idle, ` +
    `${(p95(during) / p95(idle)).toFixed(2)}x; medians ${median(during).toFixed(1)} / ${median(idle).toFixed(1)} ms`,
);
