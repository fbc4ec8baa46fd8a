// Long threads: opening a 2,000-message thread with tool cards (against a 20-message one), scrolling it (frame
// times against idle frames of the same page), and typing in the composer while an answer streams (against
// typing with nothing streaming; keys sent by the clock, typing-probe.ts). All timed inside the page of the production
// build.
import type { Page } from 'playwright-core';
import { startFakeAnthropic } from '../../fakes/fake-anthropic';
import { seed, timeToComposer, withChromium } from '../chromium';
import { median, p95, type Row } from '../report';
import { TYPING_PROBE, typeByClock } from '../typing-probe';

const SHORT = { title: 'Short thread', messages: 20, lastTurn: 4 };
const LONG = { title: 'Long thread', messages: 2000, lastTurn: 499 };
const TYPED = 'the quick brown fox jumps over the lazy dog';

/** Clicks the thread in the sidebar; ms until its last message is on screen (the frame after it rendered). */
function openThread(page: Page, title: string, lastTurn: number): Promise<number> {
  return page.evaluate(
    ({ title, marker }) =>
      new Promise<number>((resolve, reject) => {
        // The row's title (the row also shows when the thread last changed and the start of its latest answer).
        const link = [...document.querySelectorAll<HTMLButtonElement>('button.thread-link')].find(
          (b) => b.querySelector('.thread-title')?.textContent === title,
        );
        if (!link) return reject(new Error(`no thread "${title}" in the sidebar`));
        const start = performance.now();
        link.click();
        const check = () => {
          const shown =
            document.querySelector('section[aria-label="Chat"] h2')?.textContent === title &&
            (document.querySelector('[aria-label="Messages"]')?.textContent ?? '').includes(marker);
          if (!shown) return void requestAnimationFrame(check);
          requestAnimationFrame(() => resolve(performance.now() - start));
        };
        requestAnimationFrame(check);
      }),
    { title, marker: `(turn ${lastTurn})` },
  );
}

/** Frame intervals while the message list scrolls `step` px per frame (or stays idle with step 0). */
function frames(page: Page, step: number, count: number): Promise<number[]> {
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

/** Open, scroll and typing-while-streaming figures for a 2,000-message thread. */
export async function measureLongThreads(origin: string, runs = 5): Promise<Row[]> {
  const api = await startFakeAnthropic();
  try {
    return await withChromium(async (context, page) => {
      await context.addInitScript(TYPING_PROBE);
      const cdp = await context.newCDPSession(page);
      const typingLatencies = async () => (await typeByClock(page, cdp, TYPED)).keys;
      await seed(page, origin, { apiKey: 'sk-ant-bench-long', baseUrl: api.url, threads: [SHORT, LONG] });
      await timeToComposer(page, `${origin}/`);
      // The message box takes typing before storage has opened; the sidebar fills in after. The figure starts at the click.
      await page.locator('button.thread-link', { hasText: LONG.title }).first().waitFor({ timeout: 30_000 });
      const openLong: number[] = [];
      const openShort: number[] = [];
      for (let i = 0; i < runs; i++) {
        openLong.push(await openThread(page, LONG.title, LONG.lastTurn));
        openShort.push(await openThread(page, SHORT.title, SHORT.lastTurn));
      }
      await openThread(page, LONG.title, LONG.lastTurn);
      const idle = await frames(page, 0, 60);
      const scrolling = await frames(page, 400, 180);

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
          app: median(openLong),
          baseline: median(openShort),
          baselineName: `${SHORT.messages}-message thread`,
          note: `${LONG.messages} messages with tool cards, median of ${runs} opens each, alternating; includes loading it from IndexedDB`,
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
