/** The rows prepared on each side of the rendered ones. */
export const ROWS_AHEAD = 8;
/** Work starts on a next row only while at least this much of an idle period is left. */
const MIN_IDLE_MS = 4;

/**
 * The rows next to the rendered range `[start, end]` of `count` rows, nearest first and alternating (above, below),
 * `ahead` on each side: the rows a scroll brings in next.
 */
export function rowsAhead(start: number, end: number, count: number, ahead = ROWS_AHEAD): number[] {
  const rows: number[] = [];
  for (let step = 1; step <= ahead; step++) {
    if (start - step >= 0) rows.push(start - step);
    if (end + step < count) rows.push(end + step);
  }
  return rows;
}

/** What an idle period offers (the browser's IdleDeadline), and how to wait for one; injected in tests. */
export interface IdleScheduler {
  request(callback: (deadline: { timeRemaining(): number }) => void): number;
  cancel(handle: number): void;
}

/** The browser's idle callbacks, or undefined where there are none (then nothing is prepared ahead). */
export const browserIdle = (): IdleScheduler | undefined =>
  typeof requestIdleCallback === 'function'
    ? { request: (callback) => requestIdleCallback(callback), cancel: (handle) => cancelIdleCallback(handle) }
    : undefined;

/**
 * Runs `jobs` in order in the page's idle periods, one after another while the period has time left, so that they
 * never hold a frame or a key press for longer than one job; returns a cancel that drops the rest.
 */
export function runWhenIdle(jobs: readonly (() => void)[], idle: IdleScheduler): () => void {
  let next = 0;
  let handle: number | undefined;
  const work = (deadline: { timeRemaining(): number }) => {
    handle = undefined;
    do jobs[next++]!();
    while (next < jobs.length && deadline.timeRemaining() >= MIN_IDLE_MS);
    if (next < jobs.length) handle = idle.request(work);
  };
  if (jobs.length > 0) handle = idle.request(work);
  return () => {
    if (handle !== undefined) idle.cancel(handle);
    handle = undefined;
  };
}
