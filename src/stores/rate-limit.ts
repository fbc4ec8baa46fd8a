/** A sliding-window limit: at most `count` takes within any `windowMs` (time from the injected clock). */
export function createRateLimit(options: { count: number; windowMs: number; now: () => number }): {
  take(): boolean;
} {
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
