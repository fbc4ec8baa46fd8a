// Opening the Servers panel with 20 stored servers of 500 tools each (10,000 tools), against opening it with the same
// 20 servers holding 5 tools each: from the click on "Servers" to the frame after the last server's row is in the
// page. Timed inside the page of the production build, panel closed and opened again in one settled page.
import type { Page } from 'playwright-core';
import { benchServers } from '../browser/bench-servers';
import type { SeedPlan } from '../browser/harness';
import { seed, timeToComposer, withChromium } from '../chromium';
import { readLiveMcpBenchTools } from '../dataset';
import { median, type Row } from '../report';

const SERVERS = 20;

interface Opening {
  /** Ms from the click on "Servers" to the frame after the last server's row shows. */
  readonly panel: number;
  /** Ms from the click on the last server's "Tools" to the frame after its list shows (as many rows as it shows). */
  readonly tools: number;
}

async function openOnce(page: Page): Promise<Opening> {
  const opening = await page.evaluate(async (last) => {
    const deadline = performance.now() + 30_000; // A row that never shows fails the figure rather than hanging it.
    const frame = () =>
      performance.now() > deadline
        ? Promise.reject(new Error('the Servers panel did not show in 30 s'))
        : new Promise<number>((resolve) => requestAnimationFrame(resolve));
    const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Servers')!;
    let start = performance.now();
    button.click();
    while (!document.querySelector(`li.server-item[aria-label="${last}"]`)) await frame();
    await frame();
    const panel = performance.now() - start;
    const item = document.querySelector(`li.server-item[aria-label="${last}"]`)!;
    start = performance.now();
    item.querySelector('summary')!.click();
    while (!item.querySelector('.tool-list input[role="switch"]')) await frame();
    await frame();
    return { panel, tools: performance.now() - start };
  }, `Server ${SERVERS}`);
  await page.getByRole('button', { name: 'Servers' }).click();
  await page.getByRole('heading', { name: 'Servers' }).waitFor({ state: 'detached' });
  return opening;
}

async function panelOpens(origin: string, plan: SeedPlan, runs: number): Promise<Opening[]> {
  return withChromium(async (_context, page) => {
    await seed(page, origin, plan);
    await timeToComposer(page, `${origin}/`);
    // Settled: every stored catalog registered (the last server's row shows its tools), then indexed (a second of
    // quiet for the background slices; nothing types here).
    await page.getByRole('button', { name: 'Servers' }).click();
    const perServer = plan.servers?.[0]?.tools.length ?? 0;
    await page
      .locator(`li.server-item[aria-label="Server ${SERVERS}"] summary`, { hasText: `of ${perServer} on` })
      .waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.waitForTimeout(2000);
    const times: Opening[] = [];
    for (let i = 0; i < runs; i++) times.push(await openOnce(page));
    return times;
  });
}

export async function measureServersPanel(origin: string, runs = 9): Promise<Row[]> {
  const source = readLiveMcpBenchTools();
  const base: SeedPlan = { apiKey: 'sk-ant-bench-panel', threads: [{ title: 'Only thread', messages: 8 }] };
  const large = await panelOpens(origin, { ...base, servers: benchServers(source, SERVERS, 500) }, runs);
  const small = await panelOpens(origin, { ...base, servers: benchServers(source, SERVERS, 5) }, runs);
  const panel = large.map((o) => o.panel);
  const tools = large.map((o) => o.tools);
  return [
    {
      figure: 'Opening the Servers panel with 10k tools',
      unit: 'ms',
      app: median(panel),
      baseline: median(small.map((o) => o.panel)),
      baselineName: `the same ${SERVERS} servers with 5 tools each`,
      note: `median of ${runs} openings in one settled page each (click to the frame after the last server's row); range ${Math.min(...panel).toFixed(0)}-${Math.max(...panel).toFixed(0)} ms`,
    },
    {
      figure: "Opening one server's list of 500 tools",
      unit: 'ms',
      app: median(tools),
      baseline: median(small.map((o) => o.tools)),
      baselineName: 'its list of 5 tools',
      note: `median of ${runs}, in the panel just opened (click on its Tools to the frame after its list shows); range ${Math.min(...tools).toFixed(0)}-${Math.max(...tools).toFixed(0)} ms`,
    },
  ];
}
