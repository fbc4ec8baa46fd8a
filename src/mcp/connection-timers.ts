import type { ConnectionTiming } from './connection-timing';

// The timers of a server's connection: closing it when idle, and reconnecting after the network failed.

/** Closes an idle connection: each `touch` starts the wait again, and a wait that ends with calls in flight restarts. */
export class IdleTimer {
  private timer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly idleMs: () => number,
    private readonly isBusy: () => boolean,
    private readonly onIdle: () => void,
  ) {}

  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => (this.isBusy() ? this.touch() : this.onIdle()), this.idleMs());
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** Reconnect attempts with exponential backoff, from the first delay up to the longest, until the attempts run out. */
export class ReconnectBackoff {
  private attempt = 0;
  private timer?: ReturnType<typeof setTimeout>;

  constructor(private readonly timing: () => ConnectionTiming['reconnect']) {}

  /** Runs `reconnect` after the next delay, unless the attempts are used up; says whether it will. */
  schedule(reconnect: () => void): boolean {
    const { initialMs, maxMs, attempts } = this.timing();
    if (this.attempt >= attempts) return false;
    const delay = Math.min(initialMs * 2 ** this.attempt, maxMs);
    this.attempt++;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      reconnect();
    }, delay);
    return true;
  }

  /** A reconnect is waiting for its delay. */
  get isPending(): boolean {
    return this.timer !== undefined;
  }

  /** Every attempt was made and failed (until a connect succeeds or `reset`). */
  get hasRunOut(): boolean {
    return this.attempt >= this.timing().attempts;
  }

  /** A connect succeeded: the next failure starts from the first delay. */
  reset(): void {
    this.attempt = 0;
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
