// Storage: appending messages and loading a 2,000-message thread through the app's repositories
// (src/storage over real IndexedDB in Chromium), against raw idb doing the same transactions in the same page.
import { pageOf } from '../builds';
import { withChromium } from '../chromium';
import { median, p95, type Row } from '../report';

/** Median ms per append (over `messages` appends each) and per load of the whole thread (over `loads` each). */
export async function measureStorage(origin: string, messages = 2000, loads = 21): Promise<Row[]> {
  return withChromium(async (_context, page) => {
    await page.goto(`${origin}${pageOf('harness').path}`);
    await page.waitForFunction(() => window.benchHarness !== undefined);
    const times = await page.evaluate(({ messages, loads }) => window.benchHarness!.storage(messages, loads), {
      messages,
      loads,
    });
    const baselineName = 'raw idb, same transactions';
    return [
      {
        figure: 'Storage: append a message',
        unit: 'ms',
        app: median(times.appendApp),
        baseline: median(times.appendRaw),
        baselineName,
        budget: { maxRatio: 1.3 },
        note: `${messages} appends each, timed in interleaved groups of 10 (the page's clock ticks in 0.1 ms), real IndexedDB in Chromium; p95 of the groups app ${p95(times.appendApp).toFixed(2)} ms, raw ${p95(times.appendRaw).toFixed(2)} ms`,
      },
      {
        figure: `Storage: load a ${messages}-message thread`,
        unit: 'ms',
        app: median(times.loadApp),
        baseline: median(times.loadRaw),
        baselineName,
        budget: { maxRatio: 1.3 },
        note: `${loads} loads each after 5 warm-up loads, interleaved; every record is checked against the Message schema (a corrupt one is reported, the rest load): the schema guard alone takes ${median(times.guardOnly).toFixed(1)} ms, where zod's parse (no JIT under the CSP) takes ${median(times.zodOnly).toFixed(1)} ms`,
      },
    ];
  });
}
