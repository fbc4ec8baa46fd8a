// Interleaved A/B of the long-thread scroll figure between two builds (each built by `--build <dir>` from its own
// checkout): runs alternate A, B, A, B… each in a fresh Chromium profile, as the long-threads figure scrolls.
// `npx tsx test/bench/scroll-ab.ts --build test-results/ab-dist` then
// `npx tsx test/bench/scroll-ab.ts --a <dirA> --b <dirB> --runs 6`
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startFakeAnthropic } from '../fakes/fake-anthropic';
import { seed, timeToComposer, withChromium } from './chromium';
import { buildAll, serveBuilds } from './builds';
import { openThread, scrollFrames } from './figures/long-threads';
import { median, p95 } from './report';

const { values } = parseArgs({
  options: {
    build: { type: 'string' },
    a: { type: 'string' },
    b: { type: 'string' },
    runs: { type: 'string', default: '6' },
  },
});

if (values.build) {
  await buildAll(resolve(values.build));
  process.exit(0);
}

const LONG = { title: 'Long thread', messages: 2000, lastTurn: 499, content: 'rich' } as const;

interface Result {
  idle: number[];
  scrolling: number[];
  /** Long animation frames during the scroll: count and total blocking ms. */
  loafs: number;
  blocking: number;
}

async function once(origin: string, apiUrl: string): Promise<Result> {
  return withChromium(async (_context, page) => {
    await seed(page, origin, { apiKey: 'sk-ant-bench-long', baseUrl: apiUrl, threads: [LONG] });
    await timeToComposer(page, `${origin}/`);
    await page.locator('button.thread-link', { hasText: LONG.title }).first().waitFor({ timeout: 30_000 });
    await openThread(page, LONG.title, LONG.lastTurn);
    const idle = await scrollFrames(page, 0, 60);
    // Long animation frames during the scroll, counted in the page (kept on window between the two evaluations).
    await page.evaluate(() => {
      const counts = { loafs: 0, blocking: 0 };
      const add = (entries: PerformanceEntryList) => {
        for (const entry of entries) {
          counts.loafs += 1;
          counts.blocking += (entry as PerformanceEntry & { blockingDuration: number }).blockingDuration;
        }
      };
      const observer = new PerformanceObserver((list) => add(list.getEntries()));
      observer.observe({ type: 'long-animation-frame' });
      (window as unknown as { loafCounts: () => typeof counts }).loafCounts = () => {
        add(observer.takeRecords());
        observer.disconnect();
        return counts;
      };
    });
    const scrolling = await scrollFrames(page, 400, 180);
    const { loafs, blocking } = await page.evaluate(() =>
      (window as unknown as { loafCounts: () => { loafs: number; blocking: number } }).loafCounts(),
    );
    return { idle, scrolling, loafs, blocking };
  });
}

const [a, b] = [values.a!, values.b!];
const runs = Number(values.runs);
const servedA = await serveBuilds(resolve(a));
const servedB = await serveBuilds(resolve(b));
const api = await startFakeAnthropic({ contextWindowTokens: 1_000_000 });
const results: Record<
  'A' | 'B',
  {
    p95: number;
    idle: number;
    ratio: number;
    median: number;
    loafs: number;
    blocking: number;
    late: number;
    total: number;
  }[]
> = {
  A: [],
  B: [],
};
try {
  for (let i = 0; i < runs; i++) {
    for (const [name, served] of (i % 2
      ? [
          ['B', servedB],
          ['A', servedA],
        ]
      : [
          ['A', servedA],
          ['B', servedB],
        ]) as ['A' | 'B', typeof servedA][]) {
      const r = await once(served.url, api.url);
      const row = {
        p95: p95(r.scrolling),
        idle: p95(r.idle),
        ratio: p95(r.scrolling) / p95(r.idle),
        median: median(r.scrolling),
        loafs: r.loafs,
        blocking: r.blocking,
        late: r.scrolling.filter((d) => d > 20).length,
        total: r.scrolling.reduce((sum, d) => sum + d, 0),
      };
      results[name].push(row);
      console.log(
        `${name} run ${i + 1}: scroll p95 ${row.p95.toFixed(1)} ms, idle p95 ${row.idle.toFixed(1)} ms, ${row.ratio.toFixed(2)}x; median ${row.median.toFixed(1)}; long frames ${row.loafs}, blocking ${row.blocking.toFixed(0)} ms; frames over 20 ms ${row.late}, total ${row.total.toFixed(0)} ms`,
      );
    }
  }
  for (const name of ['A', 'B'] as const) {
    const rs = results[name];
    console.log(
      `${name}: median scroll p95 ${median(rs.map((r) => r.p95)).toFixed(1)} ms, idle p95 ${median(rs.map((r) => r.idle)).toFixed(1)} ms, ratio ${median(rs.map((r) => r.ratio)).toFixed(2)}x; long frames ${median(rs.map((r) => r.loafs))}, blocking ${median(rs.map((r) => r.blocking)).toFixed(0)} ms; frames over 20 ms ${median(rs.map((r) => r.late))}, total ${median(rs.map((r) => r.total)).toFixed(0)} ms`,
    );
  }
} finally {
  await api.stop();
  await servedA.close();
  await servedB.close();
}
