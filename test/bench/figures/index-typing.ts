// Typing while tool search indexes 10,000 tools (issue #23: typing p95 while the index builds <= 1.2x idle). In a
// settled page, another tab stores 20 servers of 500 tools each while a person types; this page registers them and
// indexes their tools (against typing into the same page idle). And a page load with those 10,000 tools stored,
// typed into from the first frame while the app starts, reads the catalogs and builds the index (against the same
// start-up with no tools). Timed inside the page of the production build.
import type { CDPSession, Page } from 'playwright-core';
import { benchServers } from '../browser/bench-servers';
import type { SeedPlan } from '../browser/harness';
import { pageOf } from '../builds';
import { seed, timeToComposer, withChromium } from '../chromium';
import { readLiveMcpBenchTools } from '../dataset';
import { median, p95, type Row } from '../report';
import { TYPING_PROBE, typeByClock, type Typed, type TypingPauses } from '../typing-probe';

const SERVERS = 20;
const TOOLS_PER_SERVER = 500;
/** About 4 s of typing at 50 ms a key: longer than start-up and the index build take. */
const TYPED = 'please find a tool that converts currency and then books a table for four people tonight';

const source = () => readLiveMcpBenchTools();

/** Typing with a pause to think every 20 keys: the page takes in and indexes arriving tools in such pauses. */
export const WITH_PAUSES: TypingPauses = { every: 20, ms: 700 };

const typeNow = (page: Page, cdp: CDPSession, pauses?: TypingPauses) => typeByClock(page, cdp, TYPED, pauses);

/** Page loads with `plan` stored: typing through start-up, then (after `settleMs`) typing into the settled page. */
async function startUpTyping(origin: string, plan: SeedPlan, runs: number, settleMs: number) {
  return withChromium(async (context, page) => {
    await context.addInitScript(TYPING_PROBE);
    await seed(page, origin, plan);
    const cdp = await context.newCDPSession(page);
    const startUp: Typed[] = [];
    const settled: Typed[] = [];
    for (let i = 0; i < runs; i++) {
      await page.goto('about:blank');
      await timeToComposer(page, `${origin}/`);
      startUp.push(await typeNow(page, cdp));
      await page.waitForTimeout(settleMs);
      settled.push(await typeNow(page, cdp));
    }
    return { startUp, settled };
  });
}

/**
 * A settled page with no tools; then, while a person types (steadily, or with `pauses`), another tab of the app
 * stores 20 servers with 500 tools each (as an import there would), and this page registers them and indexes their
 * 10,000 tools. The other tab stores them from a worker: same-site tabs may share one main thread, and its work is
 * not this page's. Also how long after the last key the last server shows in this page's Servers panel.
 */
export async function arrivalTyping(origin: string, plan: SeedPlan, settleMs: number, pauses?: TypingPauses) {
  return withChromium(async (context, page) => {
    await context.addInitScript(TYPING_PROBE);
    await seed(page, origin, plan);
    const cdp = await context.newCDPSession(page);
    await timeToComposer(page, `${origin}/`);
    await page.waitForTimeout(settleMs);
    const idle = await typeNow(page, cdp, pauses);
    const other = await context.newPage();
    await other.goto(`${origin}${pageOf('harness').path}`);
    await other.waitForFunction(() => window.benchHarness !== undefined);
    await other.evaluate(
      ({ tools, count, perServer }) => window.benchHarness!.prepareServersOffThread(tools, count, perServer),
      { tools: source(), count: SERVERS, perServer: TOOLS_PER_SERVER },
    );
    // The new tab came to the front; a tab behind gets no frames, and the probe waits for one.
    await page.bringToFront();
    const stored = other.evaluate(() => window.benchHarness!.storeServersOffThread());
    const during = await typeNow(page, cdp, pauses);
    const typedAt = Date.now();
    await stored;
    // The figure is only worth something if the tools did arrive: the last server is listed with its 500 tools.
    await page.getByRole('button', { name: 'Servers' }).click();
    // By its row (a text search over the panel's thousands of tool rows would cost the page seconds as it fills).
    await page.locator(`li.server-item[aria-label="Server ${SERVERS}"]`).waitFor({ timeout: 30_000 });
    return { idle, during, listedAfter: Date.now() - typedAt };
  });
}

const keysOf = (runs: readonly Typed[]) => runs.flatMap((run) => run.keys);
const longest = (runs: readonly Typed[]) => Math.max(0, ...runs.flatMap((run) => run.longTasks));

/**
 * Typing p95 while 10,000 tools arrive and are indexed in a settled page, against typing into the same page idle;
 * and typing through a start-up with 10,000 stored tools, against the same start-up with none.
 */
export async function measureIndexTyping(origin: string, runs = 5): Promise<Row[]> {
  const base: SeedPlan = { apiKey: 'sk-ant-bench-typing', threads: [{ title: 'Only thread', messages: 8 }] };
  const arrivals: Awaited<ReturnType<typeof arrivalTyping>>[] = [];
  const paused: Awaited<ReturnType<typeof arrivalTyping>>[] = [];
  for (let i = 0; i < runs; i++) {
    arrivals.push(await arrivalTyping(origin, base, 3000));
    paused.push(await arrivalTyping(origin, base, 3000, WITH_PAUSES));
  }
  const loaded = await startUpTyping(
    origin,
    { ...base, servers: benchServers(source(), SERVERS, TOOLS_PER_SERVER) },
    runs,
    3000,
  );
  const bare = await startUpTyping(origin, base, runs, 3000);
  const during = keysOf(arrivals.map((a) => a.during));
  const idle = keysOf(arrivals.map((a) => a.idle));
  const duringPaused = keysOf(paused.map((a) => a.during));
  const idlePaused = keysOf(paused.map((a) => a.idle));
  const startUp = keysOf(loaded.startUp);
  const bareStart = keysOf(bare.startUp);
  return [
    {
      figure: 'Typing while 10k tools are indexed, p95',
      unit: 'ms',
      app: p95(during),
      baseline: p95(idle),
      baselineName: 'typing into the same page, idle',
      budget: { maxRatio: 1.2 },
      note: `${during.length} keys over ${runs} pages while another tab stores ${SERVERS} servers × ${TOOLS_PER_SERVER} tools and this one registers and indexes them (in the typing's first pause: the last server listed ${median(arrivals.map((a) => a.listedAfter)).toFixed(0)} ms after the last key, median); median ${median(during).toFixed(1)} ms vs ${median(idle).toFixed(1)} ms idle, longest task ${longest(arrivals.map((a) => a.during)).toFixed(0)} ms`,
    },
    {
      figure: 'Typing with pauses while 10k tools are indexed, p95',
      unit: 'ms',
      app: p95(duringPaused),
      baseline: p95(idlePaused),
      baselineName: 'the same typing into the same page, idle',
      budget: { maxRatio: 1.2 },
      note: `as above, typing with a ${WITH_PAUSES.ms} ms pause every ${WITH_PAUSES.every} keys, in which the page takes the servers in and indexes them (${duringPaused.length} keys over ${runs} pages; the last server listed ${median(paused.map((a) => a.listedAfter)).toFixed(0)} ms after the last key, median); median ${median(duringPaused).toFixed(1)} ms vs ${median(idlePaused).toFixed(1)} ms idle, longest task ${longest(paused.map((a) => a.during)).toFixed(0)} ms`,
    },
    {
      figure: 'Typing through start-up with 10k stored tools, p95',
      unit: 'ms',
      app: p95(startUp),
      baseline: p95(bareStart),
      baselineName: 'the same start-up, no tools',
      note: `${startUp.length} keys over ${runs} page loads, typed from the first frame; median ${median(startUp).toFixed(1)} ms, longest task ${longest(loaded.startUp).toFixed(0)} ms (no tools: ${longest(bare.startUp).toFixed(0)} ms); the settled page: p95 ${p95(keysOf(loaded.settled)).toFixed(1)} ms`,
    },
  ];
}
