import type { PageMessage } from '../../domain/code-execution';

/** One sandbox, opened for one execute_code call: messages both ways, and an end that kills whatever runs in it. */
export interface SandboxChannel {
  post(message: PageMessage): void;
  /** Every message the sandbox sends (untrusted: the model's code can send anything). */
  listen(handle: (message: unknown) => void): void;
  /** Ends the sandbox at once (an endless loop included). */
  close(): void;
}

/**
 * Opens a fresh sandbox where code reaches nothing but its channel. The browser's is an opaque-origin frame with a
 * worker (src/platform/code-sandbox-frame.ts); unit tests use a Node worker with the same protocol.
 */
export type OpenSandbox = (signal: AbortSignal) => Promise<SandboxChannel>;

/** Timers, injectable where time is the subject. */
export interface SessionTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
  /** Milliseconds, from any fixed point. */
  now(): number;
}

export const realTimers: SessionTimers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => performance.now(),
};

/**
 * Whether the page asks the person something on behalf of one code run: code waiting on a call that waits on the
 * person is not using its time.
 */
export interface PersonAsked {
  /**
   * Whether the approval of a call whose id starts with `callIdPrefix` (the code's own calls) is open, or, while
   * `isCalling` (one of its calls runs), whether a server asks the person anything (a form, a model call to review).
   */
  isAsked(callIdPrefix: string, isCalling: boolean): boolean;
  /** Calls `listener` on every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** PersonAsked for one code run: its calls' id prefix already given. */
export interface CodeRunAsked {
  isAsked(isCalling: boolean): boolean;
  subscribe(listener: () => void): () => void;
}
