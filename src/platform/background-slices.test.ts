import { describe, expect, it } from 'vitest';
import { createBackgroundSlices, pacedYield } from './background-slices';

describe('createBackgroundSlices', () => {
  it('ends a slice once its time is spent, or at once when input is waiting', () => {
    let isInputPending = false;
    // A slice of a minute: a busy machine's pause between two lines of the test cannot spend it (one of 4 ms could).
    const slices = createBackgroundSlices(60_000, {
      navigator: { scheduling: { isInputPending: () => isInputPending } },
    });
    const now = slices.now();
    expect(slices.isOver(now)).toBe(false);
    expect(slices.isOver(now - 60_001)).toBe(true);
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

describe('background slices while the person types', () => {
  /** Globals that hand the slices' input listeners to the test. */
  function page() {
    const listeners = new Map<string, () => void>();
    return {
      listeners,
      globals: {
        addEventListener: (type: string, listener: () => void) => void listeners.set(type, listener),
        // A task at once (a microtask): whatever keeps next() waiting is the pause, not the task.
        scheduler: { postTask: (task: () => void) => Promise.resolve().then(task) },
      },
    };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('waits for a pause after a key or a press, unless the work is hurried, and waits again once released', async () => {
    const { listeners, globals } = page();
    const slices = createBackgroundSlices(4, globals, 60_000);
    expect([...listeners.keys()].sort()).toEqual(['keydown', 'pointerdown']);
    await slices.next(); // No key yet: at once.

    listeners.get('keydown')!();
    let isDone = false;
    const waiting = slices.next().then(() => (isDone = true));
    await settle();
    expect(isDone).toBe(false); // A minute of quiet is asked for, and a key was just pressed.
    const release = slices.hurry();
    await waiting;

    await slices.next(); // Still hurried: no wait.
    release();
    release(); // Twice is once.
    listeners.get('pointerdown')!();
    isDone = false;
    const again = slices.next().then(() => (isDone = true));
    await settle();
    expect(isDone).toBe(false);
    const second = slices.hurry();
    await again;
    second();
  });

  it('tells when the person pauses, without a task of its own', async () => {
    const { listeners, globals } = page();
    const slices = createBackgroundSlices(4, globals, 60_000);
    await slices.idle(); // Not typing: at once.
    listeners.get('keydown')!();
    let isIdle = false;
    const waiting = slices.idle().then(() => (isIdle = true));
    await settle();
    expect(isIdle).toBe(false);
    slices.hurry()(); // Released at once (a turn whose index was ready): the wait it woke still ends.
    await waiting;
  });

  it('goes on by itself once the person pauses', async () => {
    const { listeners, globals } = page();
    const slices = createBackgroundSlices(4, globals, 20);
    listeners.get('keydown')!();
    const typedAt = performance.now();
    await slices.next();
    expect(performance.now() - typedAt).toBeGreaterThan(10); // Not at once: it waited for the pause.
  });
});

describe('a paced yield', () => {
  it('lets the page in once 8 ms of work have run since it last did, and never while the page is hidden', async () => {
    let time = 1_000;
    let isHidden = false;
    let yields = 0;
    const pause = pacedYield(
      8,
      () => time,
      () => isHidden,
      async () => void yields++,
    );
    await pause(); // The first step of a burst lets the page in.
    for (let step = 0; step < 10; step++) {
      time += 1;
      await pause();
    }
    expect(yields).toBe(2); // 10 ms of 1 ms steps: one more after 8 ms
    isHidden = true;
    time += 100;
    await pause();
    expect(yields).toBe(2);
    isHidden = false;
    await pause();
    expect(yields).toBe(3);
  });
});
