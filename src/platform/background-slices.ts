/**
 * Work the page does in the background a slice at a time (indexing a large tool catalog), so that a key pressed
 * meanwhile waits for at most a few milliseconds of it, never for the whole job.
 */
export interface BackgroundSlices {
  /** The clock a slice is measured with, in ms. */
  now(): number;
  /** Whether a slice that began at `startedAt` should end now: its time is spent, or input is waiting. */
  isOver(startedAt: number): boolean;
  /**
   * Resolves in a later task, queued behind input and rendering where the browser can tell them apart; while the
   * person is typing (a key or a press in the last `quietMs`), only once they pause, unless the work is hurried.
   */
  next(): Promise<void>;
  /** Someone waits for the work (a turn needs the index): slices go on without waiting for a pause until released. */
  hurry(): () => void;
  /** Resolves once the person pauses typing (at once when they are not typing, or while the work is hurried). */
  idle(): Promise<void>;
}

/** The longest a slice runs when no input waits: a key pressed during one is handled within about this. */
export const SLICE_MS = 4;

/**
 * How long after the last key or press background work waits before it goes on: keys come 100-300 ms apart while a
 * person types, so the work runs in their pauses rather than between their keys.
 */
export const QUIET_MS = 500;

interface SchedulerGlobals {
  readonly scheduler?: {
    readonly yield?: () => Promise<void>;
    readonly postTask?: (task: () => void, options: { readonly priority: 'background' }) => Promise<void>;
  };
  readonly navigator?: { readonly scheduling?: { readonly isInputPending?: () => boolean } };
  readonly addEventListener?: (
    type: string,
    listener: () => void,
    options: { readonly capture: boolean; readonly passive: boolean },
  ) => void;
}

/**
 * Slices for this page: `scheduler.postTask` at background priority and `isInputPending` where the browser has them,
 * and no slice while the person types (a key or a press in the last `quietMs`) unless the work is hurried.
 */
export function createBackgroundSlices(
  sliceMs = SLICE_MS,
  globals: SchedulerGlobals = globalThis as unknown as SchedulerGlobals,
  quietMs = QUIET_MS,
): BackgroundSlices {
  const now = () => performance.now();
  const postTask = globals.scheduler?.postTask?.bind(globals.scheduler);
  const isInputPending = globals.navigator?.scheduling?.isInputPending?.bind(globals.navigator.scheduling);
  let lastInput = -Infinity;
  const onInput = () => void (lastInput = now());
  for (const type of ['keydown', 'pointerdown'])
    globals.addEventListener?.(type, onInput, { capture: true, passive: true });
  let hurried = 0;
  /** Hurries so far: a wait a hurry woke ends, even when the hurry was released before the waiter ran again. */
  let hurries = 0;
  const waiting = new Set<() => void>();
  const pause = async () => {
    const asked = hurries;
    const isWaiting = () => hurried === 0 && hurries === asked;
    for (let left = quietMs - (now() - lastInput); isWaiting() && left > 0; left = quietMs - (now() - lastInput)) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(wake, left);
        function wake() {
          clearTimeout(timer);
          waiting.delete(wake);
          resolve();
        }
        waiting.add(wake);
      });
    }
  };
  return {
    now,
    isOver: (startedAt) => now() - startedAt >= sliceMs || (isInputPending?.() ?? false),
    next: async () => {
      await pause();
      await (postTask
        ? postTask(() => undefined, { priority: 'background' })
        : new Promise<void>((resolve) => setTimeout(resolve, 0)));
    },
    idle: pause,
    hurry: () => {
      hurried++;
      hurries++;
      for (const wake of [...waiting]) wake();
      let isReleased = false;
      return () => {
        if (!isReleased) hurried--;
        isReleased = true;
      };
    },
  };
}

/**
 * Resolves in a later task, ahead of background work: for a step of the page's own work that should let a key
 * pressed meanwhile in first (`scheduler.yield` where the browser has it).
 */
export function yieldToPage(globals: SchedulerGlobals = globalThis as unknown as SchedulerGlobals): Promise<void> {
  const { scheduler } = globals;
  return scheduler?.yield ? scheduler.yield.call(scheduler) : new Promise<void>((resolve) => setTimeout(resolve, 0));
}

/** How long the page's own work runs between yields (see pacedYield). */
export const PACE_MS = 8;

/**
 * A yield for work split into many small steps: it lets the page in only once `paceMs` have run since it last did,
 * so 150 steps of 64 tools cost a few yields rather than 150, which matters where a yield is a `setTimeout` (at least
 * 4 ms each once nested). A hidden page has no one typing: there it never yields (a hidden tab's timers wait a second).
 */
export function pacedYield(
  paceMs = PACE_MS,
  now: () => number = () => performance.now(),
  isHidden: () => boolean = () => typeof document !== 'undefined' && document.visibilityState === 'hidden',
  yieldOnce: () => Promise<void> = () => yieldToPage(),
): () => Promise<void> {
  let since = -Infinity;
  return async () => {
    if (isHidden() || now() - since < paceMs) return;
    await yieldOnce();
    since = now();
  };
}
