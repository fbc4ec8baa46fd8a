import { describe, expect, it } from 'vitest';
import { limitCountsLine } from './limit-counts';

describe('limitCountsLine', () => {
  it('shows every limit that was set, with its count, in one line', () => {
    expect(
      limitCountsLine({
        callsThisHour: { used: 3, max: 50 },
        tokensToday: { used: 12_400, max: 1_000_000 },
        threadSpendUsd: { used: 0.02, max: 1 },
      }),
    ).toBe('Limits: 3 of 50 calls this hour · 12,400 of 1,000,000 tokens today · $0.02 of $1.00 in this thread');
  });

  it('leaves out the limits not set, and says nothing when none is', () => {
    expect(limitCountsLine({ tokensToday: { used: 0, max: 5 } })).toBe('Limits: 0 of 5 tokens today');
    expect(limitCountsLine({ threadSpendUsd: { used: 0.000012, max: 0.5 } })).toBe(
      'Limits: $0.000012 of $0.50 in this thread',
    );
    expect(limitCountsLine({})).toBeUndefined();
    expect(limitCountsLine(undefined)).toBeUndefined();
  });
});
