// Typing as a person types, timed inside the page: one key every 50 ms by the clock, sent over the DevTools protocol
// without waiting for the page (Playwright's keyboard.type waits for each key, so one long task would delay a key and
// hold the rest back unmeasured); each key timed from its event to the frame after it was handled, long tasks counted.
import type { CDPSession, Page } from 'playwright-core';

declare global {
  interface Window {
    benchKeys?: number[];
    benchLongTasks?: number[];
  }
}

/** Install before any page script (`context.addInitScript(TYPING_PROBE)`): keys' latencies and long tasks. */
export const TYPING_PROBE = `(() => {
  window.benchKeys = [];
  window.benchLongTasks = [];
  document.addEventListener('keydown', (event) =>
    requestAnimationFrame(() => setTimeout(() => window.benchKeys.push(performance.now() - event.timeStamp), 0)), true);
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.benchLongTasks.push(e.duration); })
      .observe({ type: 'longtask', buffered: true });
  } catch {}
})();`;

export interface Typed {
  readonly keys: number[];
  readonly longTasks: number[];
}

/** A person who stops to think: after every `every` keys, no key for `ms`. */
export interface TypingPauses {
  readonly every: number;
  readonly ms: number;
}

/**
 * Types `text` into the message box, from now, one key every 50 ms by the clock (with `pauses`, a longer wait after
 * every few keys); the keys' latencies and the long tasks meanwhile. Checks that the box got every key in order, then empties it.
 */
export async function typeByClock(page: Page, cdp: CDPSession, text: string, pauses?: TypingPauses): Promise<Typed> {
  await page.evaluate(() => {
    window.benchKeys = [];
    window.benchLongTasks = [];
  });
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.focus();
  const sent: Promise<unknown>[] = [];
  for (const [i, char] of [...text].entries()) {
    const key = { key: char, text: char, unmodifiedText: char };
    sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...key }));
    sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: char }));
    const isPause = pauses !== undefined && (i + 1) % pauses.every === 0;
    await new Promise((resolve) => setTimeout(resolve, isPause ? pauses.ms : 50));
  }
  await Promise.all(sent);
  // The last key's frame.
  await page.waitForFunction((count) => (window.benchKeys?.length ?? 0) >= count, text.length);
  const typed = await page.evaluate(() => ({ keys: window.benchKeys ?? [], longTasks: window.benchLongTasks ?? [] }));
  if ((await box.inputValue()) !== text) throw new Error('the message box did not get every key in order');
  await box.fill('');
  return typed;
}
