/** Init scripts for browser suites that look at the page before start-up has read IndexedDB. */

/**
 * In the page, before its scripts: indexedDB.open succeeds `holdMs` later than it would (the request's success is
 * held back, then given again); with `failAfter`, the connection is closed first, so start-up fails on its first read.
 * Passed to page.addInitScript, so it must not use anything from this module.
 */
export function holdIndexedDbOpen({ holdMs, failAfter }: { holdMs: number; failAfter: boolean }): void {
  const open = IDBFactory.prototype.open.bind(indexedDB); // The page's only factory.
  const released = new WeakSet<Event>();
  IDBFactory.prototype.open = (...args: Parameters<IDBFactory['open']>) => {
    const request = open(...args);
    request.addEventListener('success', (event) => {
      if (released.has(event)) return;
      event.stopImmediatePropagation();
      setTimeout(() => {
        if (failAfter) request.result.close();
        const again = new Event('success');
        released.add(again);
        request.dispatchEvent(again);
      }, holdMs);
    });
    return request;
  };
}

/** Where recordFrameBackgrounds leaves its samples, on the page's window. */
export const FRAME_BACKGROUNDS = '__frameBackgrounds';

/**
 * In the page, before its scripts: notes the page's computed background colour at each of its first `frames`
 * animation frames, the first of them just before the first paint, in window[FRAME_BACKGROUNDS].
 */
export function recordFrameBackgrounds({ frames, key }: { frames: number; key: string }): void {
  const samples: string[] = [];
  (window as unknown as Record<string, string[]>)[key] = samples;
  const sample = () => {
    samples.push(getComputedStyle(document.documentElement).backgroundColor);
    if (samples.length < frames) requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
}
