// Where a long thread's scroll frames go: the long-threads figure's scroll (400 px a frame, 180 frames) with a CPU
// profile and a performance trace of it, summed by function and by trace event (written whole to
// /tmp/scroll.cpuprofile and /tmp/scroll-trace.json for DevTools). Builds unminified, so functions keep their names:
// `E2E_OUT_DIR=test-results/prof-dist npx tsx test/bench/scroll-profile.ts [--no-build] [--minify]`
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import { startFakeAnthropic } from '../fakes/fake-anthropic';
import { seed, timeToComposer, withChromium } from './chromium';
import { OUT_DIR, PAGES, ROOT, serveBuilds } from './builds';
import { openThread, scrollFrames } from './figures/long-threads';
import { median, p95 } from './report';

const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    minify: { type: 'boolean', default: false },
  },
});
if (!values['no-build']) {
  const minify = values.minify;
  await build({ root: ROOT, logLevel: 'error', build: { outDir: OUT_DIR, emptyOutDir: true, minify } });
  const harness = PAGES.find((p) => p.name === 'harness')!;
  await build({
    root: ROOT,
    base: `/bench/harness/`,
    logLevel: 'error',
    build: {
      outDir: harness.dir,
      emptyOutDir: true,
      minify,
      copyPublicDir: false,
      rolldownOptions: { input: join(ROOT, `test/bench/browser/harness.html`) },
    },
  });
}

const LONG = { title: 'Long thread', messages: 2000, lastTurn: 499, content: 'rich' } as const;

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  ts: number;
  tid: number;
  pid: number;
  args?: { name?: string };
}

const served = await serveBuilds();
const api = await startFakeAnthropic({ contextWindowTokens: 1_000_000 });
try {
  await withChromium(async (context, page) => {
    const cdp = await context.newCDPSession(page);
    await seed(page, served.url, { apiKey: 'sk-ant-bench-long', baseUrl: api.url, threads: [LONG] });
    await timeToComposer(page, `${served.url}/`);
    await page.locator('button.thread-link', { hasText: LONG.title }).first().waitFor({ timeout: 30_000 });
    await openThread(page, LONG.title, LONG.lastTurn);
    await page.waitForTimeout(1000);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', (data) => void events.push(...(data.value as unknown as TraceEvent[])));
    await cdp.send('Tracing.start', {
      categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink.user_timing',
    });
    await cdp.send('Profiler.start');
    const deltas = await scrollFrames(page, 400, 180);
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
      profile: { nodes: Node[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };
    };
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.end');
    await done;
    console.log(
      `frames: p95 ${p95(deltas).toFixed(1)} median ${median(deltas).toFixed(1)} max ${Math.max(...deltas).toFixed(0)} total ${deltas.reduce((a, b) => a + b, 0).toFixed(0)} ms`,
    );

    // CPU profile: self time by function, and total time by function (each function once per stack).
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    const name = (n: Node) =>
      `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
    profile.samples.forEach((id, i) => {
      const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
      const node = byId.get(id)!;
      self.set(name(node), (self.get(name(node)) ?? 0) + dt);
      const seen = new Set<string>();
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        const key = name(byId.get(cur)!);
        if (seen.has(key)) continue;
        seen.add(key);
        total.set(key, (total.get(key) ?? 0) + dt);
      }
    });
    const top = (m: Map<string, number>, n: number) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([k, v]) => `  ${v.toFixed(1).padStart(8)} ms  ${k}`)
        .join('\n');
    console.log(`CPU self time (top 40):\n${top(self, 40)}`);
    console.log(`CPU total time (top 60):\n${top(total, 60)}`);

    // Trace: main thread's time by event name.
    const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
    const onMain = events.filter((e) => main && e.tid === main.tid && e.pid === main.pid && e.ph === 'X');
    const byName = new Map<string, number>();
    for (const e of onMain) byName.set(e.name, (byName.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
    console.log(`Main thread by event (top 30):\n${top(byName, 30)}`);
    writeFileSync('/tmp/scroll-trace.json', JSON.stringify({ traceEvents: events }));
    writeFileSync('/tmp/scroll.cpuprofile', JSON.stringify(profile));
  });
} finally {
  await api.stop();
  await served.close();
}
