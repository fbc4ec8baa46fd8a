/** A sliding-window limit's one operation. */
export interface RateLimit {
  /** Takes one if the window has room; false when the limit is reached. */
  take(): boolean;
}

/** A sliding-window limit: at most `count` takes within any `windowMs` (time from the injected clock). */
export function createRateLimit(options: { count: number; windowMs: number; now: () => number }): RateLimit {
  const times: number[] = [];
  return {
    take() {
      const now = options.now();
      while (times.length > 0 && now - times[0]! >= options.windowMs) times.shift();
      if (times.length >= options.count) return false;
      times.push(now);
      return true;
    },
  };
}
