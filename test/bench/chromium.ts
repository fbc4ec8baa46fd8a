// Chromium for the bench: a fresh profile per scenario (test/e2e/browser.ts), seeding through the harness page,
// and in-page probes that time what a person waits for.
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../e2e/browser';
import { pageOf } from './builds';
import type { SeedPlan } from './browser/harness';

declare global {
  interface Window {
    /** performance.now() when the message box first accepted input; set by COMPOSER_PROBE. */
    benchComposerReadyAt?: number;
  }
}

/**
 * Runs before any page script: notes when an enabled "Message" box first exists (the app's composer, or the
 * baseline's). Also defines the `__name` helper that tsx adds to functions passed to page.evaluate.
 */
export const COMPOSER_PROBE = `globalThis.__name ??= (f) => f;
(() => {
  const ready = () => {
    const box = document.querySelector('textarea[aria-label="Message"]');
    if (!box || box.disabled || window.benchComposerReadyAt !== undefined) return;
    window.benchComposerReadyAt = performance.now();
    observer.disconnect();
  };
  const observer = new MutationObserver(ready);
  observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'] });
})();`;

/** A fresh Chromium profile (its own IndexedDB) for one scenario; closed afterwards whatever happens. */
export async function withChromium<T>(work: (context: BrowserContext, page: Page) => Promise<T>): Promise<T> {
  const browser = await launchChromium();
  try {
    await browser.context.addInitScript(COMPOSER_PROBE);
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await page.setViewportSize({ width: 1280, height: 860 });
    return await work(browser.context, page);
  } finally {
    await browser.close();
  }
}

/** Stores `plan` through the app's storage modules on the harness page of `origin`. */
export async function seed(page: Page, origin: string, plan: SeedPlan): Promise<void> {
  await page.goto(`${origin}${pageOf('harness').path}`);
  await page.waitForFunction(() => window.benchHarness !== undefined);
  await page.evaluate((p) => window.benchHarness!.seed(p), plan);
  await page.goto('about:blank'); // Closes the harness's database connection.
}

/** Navigates and resolves with the ms from navigation start until the message box accepted input. */
export async function timeToComposer(page: Page, url: string): Promise<number> {
  return (await visit(page, url)).ready;
}

export interface Visit {
  /** ms from navigation start until the message box accepted input. */
  readonly ready: number;
  /** ms until the page's scripts had run (DOMContentLoaded ended). */
  readonly scriptsRun: number;
  /** gzip kB of JavaScript received before `ready`. */
  readonly jsKb: number;
}

/** Navigates and times the visit until the message box accepted input. */
export async function visit(page: Page, url: string): Promise<Visit> {
  await page.goto(url);
  await page.waitForFunction(() => window.benchComposerReadyAt !== undefined, undefined, { timeout: 30_000 });
  return page.evaluate(() => {
    const ready = window.benchComposerReadyAt!;
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
      (e) => e.name.endsWith('.js') && e.responseEnd <= ready,
    );
    return {
      ready,
      scriptsRun: navigation?.domContentLoadedEventEnd ?? 0,
      jsKb: scripts.reduce((sum, e) => sum + e.encodedBodySize, 0) / 1024,
    };
  });
}

/** The page's used JS heap in MB after a full garbage collection. */
export async function heapUsedMb(context: BrowserContext, page: Page): Promise<number> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize / 1024 / 1024;
}

/** Turns the HTTP cache off, so every navigation is a first visit (the code cache goes with it). */
export async function disableCache(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
}
