/**
 * Work the page does in the background a slice at a time (indexing a large tool catalog), so that a key pressed
 * meanwhile waits for at most a few milliseconds of it, never for the whole job.
 */
export interface BackgroundSlices {
  /** The clock a slice is measured with, in ms. */
  now(): number;
  /** Whether a slice that began at `startedAt` should end now: its time is spent, or input is waiting. */
  isOver(startedAt: number): boolean;
  /** Resolves in a later task, queued behind input and rendering where the browser can tell them apart. */
  next(): Promise<void>;
}

/** The longest a slice runs when no input waits: a key pressed during one is handled within about this. */
export const SLICE_MS = 4;

interface SchedulerGlobals {
  readonly scheduler?: {
    readonly yield?: () => Promise<void>;
    readonly postTask?: (task: () => void, options: { readonly priority: 'background' }) => Promise<void>;
  };
  readonly navigator?: { readonly scheduling?: { readonly isInputPending?: () => boolean } };
}

/** Slices for this page: `scheduler.postTask` at background priority and `isInputPending` where the browser has them. */
export function createBackgroundSlices(
  sliceMs = SLICE_MS,
  globals: SchedulerGlobals = globalThis as unknown as SchedulerGlobals,
): BackgroundSlices {
  const now = () => performance.now();
  const postTask = globals.scheduler?.postTask?.bind(globals.scheduler);
  const isInputPending = globals.navigator?.scheduling?.isInputPending?.bind(globals.navigator.scheduling);
  return {
    now,
    isOver: (startedAt) => now() - startedAt >= sliceMs || (isInputPending?.() ?? false),
    next: () =>
      postTask
        ? postTask(() => undefined, { priority: 'background' })
        : new Promise<void>((resolve) => setTimeout(resolve, 0)),
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
