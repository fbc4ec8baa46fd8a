import { describe, expect, it } from 'vitest';
import { untilAborted } from './async-limits';

/** A signal that counts the abort listeners added to it and not removed yet. */
function countingSignal() {
  const controller = new AbortController();
  const { signal } = controller;
  let listeners = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = (...args: Parameters<typeof add>) => (listeners++, add(...args));
  signal.removeEventListener = (...args: Parameters<typeof remove>) => (listeners--, remove(...args));
  return { controller, signal, listeners: () => listeners };
}

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
});
