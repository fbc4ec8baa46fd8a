// Many threads: a heavy user's 400 and 2,000 threads against 20, each in its own Chromium profile, the three pages
// measured in turn, round after round: start-up until the sidebar lists the threads, switching between two threads in
// the sidebar, and typing in the composer (keys by the clock, typing-probe.ts), each with the longest task meanwhile.
import type { CDPSession, Page } from 'playwright-core';
import { launchChromium, type LaunchedChromium } from '../../e2e/browser';
import { COMPOSER_PROBE, seed } from '../chromium';
import { median, p95, type Row } from '../report';
import { TYPING_PROBE, typeByClock } from '../typing-probe';
import { openThread, type Opened } from './long-threads';

const BASELINE = 20;
const SIZES = [400, 2000] as const;
/** Each thread holds one turn (question, tool call, result, answer), as most threads of a heavy user are short. */
const MESSAGES = 4;
const LAST_TURN = 0;
/** After the sidebar shows, long tasks are still counted for this long (the rest of start-up). */
const SETTLE_MS = 700;
const TYPED = 'the quick brown fox jumps over the lazy dog';

interface Profile {
  readonly size: number;
  readonly browser: LaunchedChromium;
  readonly page: Page;
  readonly cdp: CDPSession;
  readonly starts: Opened[];
  readonly switches: Opened[];
  readonly keys: number[];
}

const threadsOf = (size: number) =>
  Array.from({ length: size }, (_, i) => ({ title: `Thread ${i + 1}`, messages: MESSAGES }));

async function openProfile(origin: string, size: number): Promise<Profile> {
  const browser = await launchChromium();
  try {
    await browser.context.addInitScript(COMPOSER_PROBE);
    await browser.context.addInitScript(TYPING_PROBE);
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await page.setViewportSize({ width: 1280, height: 860 });
    await seed(page, origin, { apiKey: 'sk-ant-bench-thread-list', threads: threadsOf(size) });
    const cdp = await browser.context.newCDPSession(page);
    return { size, browser, page, cdp, starts: [], switches: [], keys: [] };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** Loads the app; ms from navigation start to the frame after the sidebar lists a thread, and the longest task until SETTLE_MS later. */
async function startUp(page: Page, origin: string): Promise<Opened> {
  await page.goto(`${origin}/`);
  return page.evaluate(
    (settleMs) =>
      new Promise<Opened>((resolve) => {
        const check = () => {
          if (!document.querySelector('button.thread-link')) return void requestAnimationFrame(check);
          requestAnimationFrame(() => {
            const ms = performance.now();
            setTimeout(() => resolve({ ms, longestTask: Math.max(0, ...(window.benchLongTasks ?? [])) }), settleMs);
          });
        };
        requestAnimationFrame(check);
      }),
    SETTLE_MS,
  );
}

async function round(profile: Profile, origin: string): Promise<void> {
  const { page } = profile;
  profile.starts.push(await startUp(page, origin));
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
  // Threads near the top of the list, as a person switches between their recent ones.
  profile.switches.push(await openThread(page, 'Thread 2', LAST_TURN));
  profile.switches.push(await openThread(page, 'Thread 3', LAST_TURN));
  profile.keys.push(...(await typeByClock(page, profile.cdp, TYPED)).keys);
}

/** Start-up, switching and typing with 400 and 2,000 threads against 20, `runs` rounds, the three profiles in turn. */
export async function measureThreadList(origin: string, runs = 5): Promise<Row[]> {
  const profiles: Profile[] = [];
  try {
    for (const size of [BASELINE, ...SIZES]) profiles.push(await openProfile(origin, size));
    for (const profile of profiles) await startUp(profile.page, origin); // Unmeasured: Chromium's first-run work.
    for (let i = 0; i < runs; i++)
      for (let k = 0; k < profiles.length; k++) await round(profiles[(i + k) % profiles.length]!, origin);
    const [base, ...heavy] = profiles as [Profile, ...Profile[]];
    const ms = (opened: readonly Opened[]) => median(opened.map((o) => o.ms));
    const longest = (opened: readonly Opened[]) => median(opened.map((o) => o.longestTask));
    const max = (opened: readonly Opened[]) => Math.max(...opened.map((o) => o.longestTask)).toFixed(0);
    const baselineName = `${BASELINE} threads`;
    return heavy.flatMap((p): Row[] => [
      {
        figure: `${p.size} threads: start-up until the list shows`,
        unit: 'ms',
        app: ms(p.starts),
        baseline: ms(base.starts),
        baselineName,
        note: `navigation start to the frame after the sidebar lists a thread, median of ${runs} loads, the profiles in turn`,
      },
      {
        figure: `${p.size} threads: longest task at start-up`,
        unit: 'ms',
        app: longest(p.starts),
        baseline: longest(base.starts),
        baselineName,
        note: `until ${SETTLE_MS} ms after the list shows, median of ${runs} loads (0: none over 50 ms); longest ${max(p.starts)} ms against ${max(base.starts)} ms`,
      },
      {
        figure: `${p.size} threads: switching threads`,
        unit: 'ms',
        app: ms(p.switches),
        baseline: ms(base.switches),
        baselineName,
        note: `click in the sidebar to the frame after the thread's last message shows, median of ${p.switches.length}`,
      },
      {
        figure: `${p.size} threads: longest task while switching`,
        unit: 'ms',
        app: longest(p.switches),
        baseline: longest(base.switches),
        baselineName,
        note: `until ${SETTLE_MS} ms after the thread shows (0: none over 50 ms); longest ${max(p.switches)} ms against ${max(base.switches)} ms`,
      },
      {
        figure: `${p.size} threads: typing p95`,
        unit: 'ms',
        app: p95(p.keys),
        baseline: p95(base.keys),
        baselineName,
        note: `key to the next frame, ${p.keys.length} keys by the clock; median ${median(p.keys).toFixed(1)} ms against ${median(base.keys).toFixed(1)} ms`,
      },
    ]);
  } finally {
    for (const profile of profiles) await profile.browser.close();
  }
}
