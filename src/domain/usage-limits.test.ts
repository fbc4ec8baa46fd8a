import { describe, expect, it } from 'vitest';
import { parseThreadSpendCap } from '../stores/usage-limits-actions';
import { ThreadConfig } from './thread-config';
import {
  resolveUsageLimits,
  threadSpend,
  threadSpendCap,
  threadSpendProblem,
  ThreadSpendLimitError,
} from './usage-limits';
import type { TraceEntry } from './trace';

const call = (costUsd?: number): TraceEntry => ({
  kind: 'model-call',
  model: 'claude-sonnet-5',
  toolNames: [],
  toolTokens: 0,
  durationMs: 1,
  usage: { input: 10, output: 10, cacheRead: 0, cacheWrite: 0 },
  ...(costUsd === undefined ? {} : { costUsd }),
});

describe('the thread spend cap', () => {
  it('tiers: the thread own value over the profile over the app; null in the thread means none', () => {
    const limits = resolveUsageLimits({ maxThreadCostUsd: 5 }, { maxThreadCostUsd: 2 });
    expect(threadSpendCap(limits, undefined)).toBe(2);
    expect(threadSpendCap(limits, 0.5)).toBe(0.5);
    expect(threadSpendCap(limits, null)).toBeUndefined();
    expect(threadSpendCap(resolveUsageLimits({ maxThreadCostUsd: 5 }, { maxThreadCostUsd: null }), undefined)).toBe(
      undefined,
    );
    expect(threadSpendCap(resolveUsageLimits({ maxThreadCostUsd: 5 }, {}), undefined)).toBe(5);
  });

  it('adds the priced model calls of the thread; an unpriced call counts nothing', () => {
    expect(threadSpend([{ trace: [call(0.25), call()] }, { trace: [call(0.5)] }])).toBeCloseTo(0.75);
  });

  it('stops once the spend reaches the cap, naming the cap and the figure spent', () => {
    expect(threadSpendProblem(1, 0.99)).toBeUndefined();
    expect(threadSpendProblem(undefined, 1000)).toBeUndefined();
    const problem = threadSpendProblem(0.5, 0.523);
    expect(problem).toBeInstanceOf(ThreadSpendLimitError);
    expect(problem?.message).toBe(
      "Stopped before the model call: this thread's spend cap of $0.50 is reached ($0.52 spent in this thread). Raise the cap in the thread's settings (or the default in Settings) and Retry. Nothing of this thread is lost.",
    );
  });

  it('as typed in the thread settings: blank follows Settings, 0 is no cap, a wrong value says why', () => {
    expect(parseThreadSpendCap('  ')).toEqual({ value: undefined });
    expect(parseThreadSpendCap('0')).toEqual({ value: null });
    expect(parseThreadSpendCap('$1.50')).toEqual({ value: 1.5 });
    expect(parseThreadSpendCap('ten')).toEqual({ error: 'Spend per thread must be a number of dollars' });
    expect(parseThreadSpendCap('-2')).toEqual({ error: 'Spend per thread must be more than $0 (0 means no cap)' });
    expect(parseThreadSpendCap('200,000')).toEqual({ error: 'Spend per thread must be at most $100,000' });
    // Not JavaScript's reading of "1e9" or "0x10" (a cap of $16 the person never typed).
    for (const typed of ['1e9', '0x10'])
      expect(parseThreadSpendCap(typed)).toEqual({ error: 'Spend per thread must be a number of dollars' });
  });

  it('is validated where it is stored, as every thread setting is', () => {
    const thread = { id: 't', profileId: 'p', title: 'T', createdAt: 0, updatedAt: 0 };
    expect(ThreadConfig.safeParse({ ...thread, maxCostUsd: -1 }).success).toBe(false);
    expect(ThreadConfig.parse({ ...thread, maxCostUsd: null }).maxCostUsd).toBeNull();
  });
});
