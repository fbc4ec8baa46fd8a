import { describe, expect, it } from 'vitest';
import { createRateLimit } from './rate-limit';

describe('a rate limit', () => {
  it('allows `count` takes within the window, refuses the next, and allows again once the window moved on', () => {
    let now = 1_000;
    const limit = createRateLimit({ count: 3, windowMs: 10_000, now: () => now });
    expect([limit.take(), limit.take(), limit.take(), limit.take()]).toEqual([true, true, true, false]);
    now += 9_999;
    expect(limit.take()).toBe(false);
    now += 1;
    expect([limit.take(), limit.take(), limit.take(), limit.take()]).toEqual([true, true, true, false]);
  });
});
