import { describe, expect, it } from 'vitest';
import { rowsAhead, runWhenIdle, type IdleScheduler } from './prepare-ahead';

describe('rowsAhead', () => {
  it('gives the rows next to the rendered ones, nearest first, alternating above and below', () => {
    expect(rowsAhead(10, 12, 100, 3)).toEqual([9, 13, 8, 14, 7, 15]);
  });

  it('stops at the ends of the list', () => {
    expect(rowsAhead(1, 98, 100, 3)).toEqual([0, 99]);
    expect(rowsAhead(0, 0, 1, 3)).toEqual([]);
  });
});

/** Idle periods run by the test: each with the given time left, read once per job. */
function fakeIdle() {
  const waiting = new Map<number, (deadline: { timeRemaining(): number }) => void>();
  let id = 0;
  const scheduler: IdleScheduler = {
    request: (callback) => (waiting.set(++id, callback), id),
    cancel: (handle) => void waiting.delete(handle),
  };
  const period = (...remaining: number[]) => {
    const [handle, callback] = [...waiting][0]!;
    waiting.delete(handle);
    callback({ timeRemaining: () => remaining.shift() ?? 0 });
  };
  return { scheduler, period, pending: () => waiting.size };
}

describe('runWhenIdle', () => {
  it('runs nothing until the page is idle, then as many jobs as the idle period has time for, the rest later', () => {
    const idle = fakeIdle();
    const done: number[] = [];
    runWhenIdle(
      [1, 2, 3, 4].map((n) => () => done.push(n)),
      idle.scheduler,
    );
    expect(done).toEqual([]);
    idle.period(10, 1); // Time for a second job after the first, not for a third.
    expect(done).toEqual([1, 2]);
    idle.period(10, 10);
    expect(done).toEqual([1, 2, 3, 4]);
    expect(idle.pending()).toBe(0);
  });

  it('drops the jobs not yet run when cancelled (the rows moved on)', () => {
    const idle = fakeIdle();
    const done: number[] = [];
    const cancel = runWhenIdle(
      [1, 2, 3].map((n) => () => done.push(n)),
      idle.scheduler,
    );
    idle.period(0);
    cancel();
    expect(done).toEqual([1]);
    expect(idle.pending()).toBe(0);
  });
});
