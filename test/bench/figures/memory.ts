// Memory: the page's JS heap (after a full GC) once the app has loaded 20 servers of 100 tools each (catalogs
// stored from earlier sessions, indexed for search) and 100 threads, against the app with only its key stored.
import { readLiveMcpBenchTools } from '../dataset';
import { benchServers } from '../browser/bench-servers';
import { heapUsedMb, seed, timeToComposer, withChromium } from '../chromium';
import { median, type Row } from '../report';
import { THREADS } from './cold-start';
import type { SeedPlan } from '../browser/harness';

const SETTLE_MS = 1500;

/** 20 servers × 100 distinct tools from LiveMCPBench (copied with a suffix where it has fewer). */
const servers = () => benchServers(readLiveMcpBenchTools(), 20, 100);

async function heapAfterStart(origin: string, plan: SeedPlan, runs: number): Promise<number[]> {
  return withChromium(async (context, page) => {
    await seed(page, origin, plan);
    const heaps: number[] = [];
    for (let i = 0; i < runs; i++) {
      await page.goto('about:blank');
      await timeToComposer(page, `${origin}/`);
      await page.waitForTimeout(SETTLE_MS); // The tool index is built in background slices after the first screen.
      heaps.push(await heapUsedMb(context, page));
    }
    return heaps;
  });
}

/** Median heap MB over `runs` page loads, loaded and bare. */
export async function measureMemory(origin: string, runs = 3): Promise<Row[]> {
  const empty = await heapAfterStart(
    origin,
    { apiKey: 'sk-ant-bench-memory', threads: [{ title: 'Only thread', messages: 8 }] },
    runs,
  );
  const loaded = await heapAfterStart(
    origin,
    { apiKey: 'sk-ant-bench-memory', threads: THREADS, servers: servers() },
    runs,
  );
  return [
    {
      figure: 'JS heap: 20 servers × 100 tools, 100 threads',
      unit: 'MB',
      app: median(loaded),
      baseline: median(empty),
      baselineName: 'the app with one thread, no servers',
      note: `used heap after a full GC, ${SETTLE_MS} ms after the composer accepted input, median of ${runs} loads`,
    },
  ];
}
