import { describe, expect, it } from 'vitest';
import { createBackgroundSlices } from './background-slices';

describe('createBackgroundSlices', () => {
  it('ends a slice once its time is spent, or at once when input is waiting', () => {
    let isInputPending = false;
    const slices = createBackgroundSlices(4, {
      navigator: { scheduling: { isInputPending: () => isInputPending } },
    });
    const now = slices.now();
    expect(slices.isOver(now)).toBe(false);
    expect(slices.isOver(now - 5)).toBe(true);
    isInputPending = true;
    expect(slices.isOver(now)).toBe(true);
  });

  it('queues the next slice behind input and rendering (background priority) where the browser can', async () => {
    const priorities: string[] = [];
    const slices = createBackgroundSlices(4, {
      scheduler: {
        postTask: (task, options) => {
          priorities.push(options.priority);
          return Promise.resolve().then(task);
        },
      },
    });
    await slices.next();
    expect(priorities).toEqual(['background']);
  });

  it('falls back to a task of its own where the browser has no scheduler (and no input check)', async () => {
    const slices = createBackgroundSlices(4, {});
    let isLater = false;
    const next = slices.next().then(() => isLater);
    queueMicrotask(() => (isLater = true)); // A microtask queued after it still runs first: next() waits for a task.
    expect(await next).toBe(true);
    expect(slices.isOver(slices.now())).toBe(false);
  });
});
