// Long threads: opening a 2,000-message thread of markdown answers, code blocks and tool cards (against a 20-message one), scrolling it (frame
// times against idle frames of the same page), and typing in the composer while an answer streams (against
// typing with nothing streaming; keys sent by the clock, typing-probe.ts). All timed inside the page of the production
// build.
import type { Page } from 'playwright-core';
import { startFakeAnthropic } from '../../fakes/fake-anthropic';
import { seed, timeToComposer, withChromium } from '../chromium';
import { median, p95, type Row } from '../report';
import { TYPING_PROBE, typeByClock } from '../typing-probe';

// Both hold a real thread's answers (thread-content.ts, `rich`: long prose, 60-line code blocks, tables, tool cards, a
// few images), as the trial of a heavy user had; until 2026-11-28 they held three-line answers, which opened 2,000
// messages in 91 ms where the trial's 600 took 0.7 s.
const SHORT = { title: 'Short thread', messages: 20, lastTurn: 4, content: 'rich' } as const;
const LONG = { title: 'Long thread', messages: 2000, lastTurn: 499, content: 'rich' } as const;
/** After the first paint, long tasks are still counted for this long (colouring code, measuring rows, thumbnails). */
const SETTLE_MS = 700;
const TYPED = 'the quick brown fox jumps over the lazy dog';

export interface Opened {
  /** ms from the click until the thread's last message is on screen (the frame after it rendered). */
  readonly ms: number;
  /** The longest task from the click until SETTLE_MS after that frame (0: none over 50 ms). */
  readonly longestTask: number;
}

/** Clicks the thread in the sidebar; times until its last message is on screen, and its longest task. */
export function openThread(page: Page, title: string, lastTurn: number): Promise<Opened> {
  return page.evaluate(
    ({ title, marker, settleMs }) =>
      new Promise<Opened>((resolve, reject) => {
        // The row's title (the row also shows when the thread last changed and the start of its latest answer).
        const link = [...document.querySelectorAll<HTMLButtonElement>('button.thread-link')].find(
          (b) => b.querySelector('.thread-title')?.textContent === title,
        );
        if (!link) return reject(new Error(`no thread "${title}" in the sidebar`));
        let longestTask = 0;
        const tasks = new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) longestTask = Math.max(longestTask, entry.duration);
        });
        tasks.observe({ type: 'longtask' });
        const start = performance.now();
        link.click();
        const check = () => {
          const shown =
            document.querySelector('section[aria-label="Chat"] h2')?.textContent === title &&
            (document.querySelector('[aria-label="Messages"]')?.textContent ?? '').includes(marker);
          if (!shown) return void requestAnimationFrame(check);
          requestAnimationFrame(() => {
            const ms = performance.now() - start;
            setTimeout(() => {
              for (const entry of tasks.takeRecords()) longestTask = Math.max(longestTask, entry.duration);
              tasks.disconnect();
              resolve({ ms, longestTask });
            }, settleMs);
          });
        };
        requestAnimationFrame(check);
      }),
    { title, marker: `(turn ${lastTurn})`, settleMs: SETTLE_MS },
  );
}

/**
 * Frame intervals while the message list scrolls `step` px per frame, turning at either end (or stays idle with step
 * 0); shared by the long-thread figure and the scroll A/B and profile tools.
 */
export function scrollFrames(page: Page, step: number, count: number): Promise<number[]> {
  return page.evaluate(
    ({ step, count }) =>
      new Promise<number[]>((resolve, reject) => {
        let scroller: HTMLElement | null = document.querySelector('[aria-label="Messages"]');
        while (
          scroller &&
          !(
            scroller.scrollHeight > scroller.clientHeight + 10 &&
            /auto|scroll/.test(getComputedStyle(scroller).overflowY)
          )
        )
          scroller = scroller.parentElement;
        if (!scroller) return reject(new Error('the message list does not scroll'));
        const element = scroller;
        let direction = -1;
        const deltas: number[] = [];
        let last = 0;
        const frame = (time: number) => {
          if (last) deltas.push(time - last);
          last = time;
          if (deltas.length >= count) return resolve(deltas);
          if (step) {
            if (element.scrollTop <= 0) direction = 1;
            else if (element.scrollTop + element.clientHeight >= element.scrollHeight - 1) direction = -1;
            element.scrollTop += direction * step;
          }
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    { step, count },
  );
}

/** Open, scroll and typing-while-streaming figures for a 2,000-message thread of rich answers. */
export async function measureLongThreads(origin: string, runs = 5): Promise<Row[]> {
  // The rich long thread is about 400k tokens: the model lists a 1M-token window (as Sonnet's long context does), so
  // the answer typed against streams into the same thread rather than stopping at "prompt is too long".
  const api = await startFakeAnthropic({ contextWindowTokens: 1_000_000 });
  try {
    return await withChromium(async (context, page) => {
      await context.addInitScript(TYPING_PROBE);
      const cdp = await context.newCDPSession(page);
      const typingLatencies = async () => (await typeByClock(page, cdp, TYPED)).keys;
      await seed(page, origin, { apiKey: 'sk-ant-bench-long', baseUrl: api.url, threads: [SHORT, LONG] });
      await timeToComposer(page, `${origin}/`);
      // The message box takes typing before storage has opened; the sidebar fills in after. The figure starts at the click.
      await page.locator('button.thread-link', { hasText: LONG.title }).first().waitFor({ timeout: 30_000 });
      const openLong: Opened[] = [];
      const openShort: Opened[] = [];
      for (let i = 0; i < runs; i++) {
        openLong.push(await openThread(page, LONG.title, LONG.lastTurn));
        openShort.push(await openThread(page, SHORT.title, SHORT.lastTurn));
      }
      await openThread(page, LONG.title, LONG.lastTurn);
      const idle = await scrollFrames(page, 0, 60);
      const scrolling = await scrollFrames(page, 400, 180);

      const typedIdle = await typingLatencies();
      const words = Array.from({ length: 600 }, (_, i) => `word${i} `);
      api.script({ text: words, delayMs: 10 });
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Write a long answer, please.');
      await box.press('Enter');
      await page.getByLabel('Answer in progress').first().waitFor({ timeout: 15_000 });
      const typedStreaming = await typingLatencies();
      const stillStreaming = await page.getByLabel('Answer in progress').count();
      await page
        .getByRole('button', { name: 'Stop' })
        .click()
        .catch(() => undefined);
      return [
        {
          figure: 'Long thread: open to first paint',
          unit: 'ms',
          app: median(openLong.map((o) => o.ms)),
          baseline: median(openShort.map((o) => o.ms)),
          baselineName: `${SHORT.messages}-message thread`,
          note: `${LONG.messages} messages with markdown, code blocks, tables, tool cards and images, median of ${runs} opens each, alternating; includes loading it from IndexedDB`,
        },
        {
          figure: 'Long thread: longest task while opening',
          unit: 'ms',
          app: median(openLong.map((o) => o.longestTask)),
          baseline: median(openShort.map((o) => o.longestTask)),
          baselineName: `${SHORT.messages}-message thread`,
          note: `from the click to ${SETTLE_MS} ms after the first paint, median of ${runs} opens (0: no task over 50 ms); longest ${Math.max(...openLong.map((o) => o.longestTask)).toFixed(0)} ms`,
        },
        {
          figure: 'Long thread: scroll frame p95',
          unit: 'ms',
          app: p95(scrolling),
          baseline: p95(idle),
          baselineName: 'idle frames',
          budget: { maxRatio: 2 },
          note: `400 px per frame for ${scrolling.length} frames; median ${median(scrolling).toFixed(1)} ms, longest ${Math.max(...scrolling).toFixed(0)} ms`,
        },
        {
          figure: 'Typing while an answer streams, p95',
          unit: 'ms',
          app: p95(typedStreaming),
          baseline: p95(typedIdle),
          baselineName: 'typing, nothing streaming',
          budget: { max: 50 },
          note: `key to the next frame, ${typedStreaming.length} keys into the ${LONG.messages}-message thread; median ${median(typedStreaming).toFixed(1)} ms vs ${median(typedIdle).toFixed(1)} ms idle${stillStreaming ? '' : ' (the answer ended before the typing did)'}`,
        },
      ];
    });
  } finally {
    await api.stop();
  }
}
