import { describe, expect, it } from 'vitest';
import { untilAborted } from './async-limits';
import { countingSignal } from '../../test/fakes/counting-signal';

describe('untilAborted', () => {
  it('leaves no listener on a long-lived signal once each promise settles', async () => {
    const { signal, listeners } = countingSignal();
    for (let i = 0; i < 3; i++) await untilAborted(Promise.resolve(i), signal);
    await untilAborted(Promise.reject(new Error('failed')), signal).catch(() => undefined);
    expect(listeners()).toBe(0);
  });

  it('rejects as the signal aborts while the work goes on', async () => {
    const { controller, signal } = countingSignal();
    const waiting = untilAborted(new Promise(() => {}), signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('with a signal aborted already, rejects at once and leaves the later failure of the work handled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let fail: (error: Error) => void = () => undefined;
      const work = new Promise<never>((_, reject) => (fail = reject));
      const { controller, signal } = countingSignal();
      controller.abort();
      await expect(untilAborted(work, signal)).rejects.toMatchObject({ name: 'AbortError' });
      fail(new Error('connect failed'));
      // Node reports an unhandled rejection once the microtasks run out; a macrotask comes after that.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
