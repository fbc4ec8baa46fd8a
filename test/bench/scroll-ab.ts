// Interleaved A/B of the long-thread scroll figure between two builds (each built by `--build <dir>` from its own
// checkout): runs alternate A, B, A, B… each in a fresh Chromium profile, as the long-threads figure scrolls.
// `npx tsx test/bench/scroll-ab.ts --build test-results/ab-dist` then
// `npx tsx test/bench/scroll-ab.ts --a <dirA> --b <dirB> --runs 6`
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import { startFakeAnthropic } from '../fakes/fake-anthropic';
import { seed, timeToComposer, withChromium } from './chromium';
import { ROOT } from './builds';
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
  const out = resolve(values.build);
  await build({ root: ROOT, logLevel: 'error', build: { outDir: out, emptyOutDir: true } });
  await build({
    root: ROOT,
    base: `/bench/harness/`,
    logLevel: 'error',
    build: {
      outDir: join(out, 'bench', 'harness'),
      emptyOutDir: true,
      copyPublicDir: false,
      rolldownOptions: { input: join(ROOT, `test/bench/browser/harness.html`) },
    },
  });
  process.exit(0);
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};
async function serve(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    void (async () => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
      const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
      const body = await readFile(file).catch(() => undefined);
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    })();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
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
const servedA = await serve(a);
const servedB = await serve(b);
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
