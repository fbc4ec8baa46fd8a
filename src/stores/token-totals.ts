import type { Message } from '../domain/message';
import type { TraceEntry, Usage } from '../domain/trace';

/** Tokens of model calls added up: input, output, cache reads and cache writes, and how many calls reported them. */
export interface TokenTotals extends Usage {
  readonly calls: number;
  /** Dollars of the calls that have a price. */
  readonly usd: number;
  /** Calls without a price (a model missing from the price table), and why: those show tokens only. */
  readonly unpriced: number;
  readonly unpricedReason?: string;
}

export const NO_TOKENS: TokenTotals = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  calls: 0,
  usd: 0,
  unpriced: 0,
};

/** The token usage of the model calls in these trace entries (failed calls report none). */
export function sumUsage(entries: readonly TraceEntry[]): TokenTotals {
  let totals = NO_TOKENS;
  for (const entry of entries) {
    if (entry.kind !== 'model-call' || !entry.usage) continue;
    const { input, output, cacheRead, cacheWrite } = entry.usage;
    const reason = entry.unpricedReason;
    totals = {
      input: totals.input + input,
      output: totals.output + output,
      cacheRead: totals.cacheRead + cacheRead,
      cacheWrite: totals.cacheWrite + cacheWrite,
      calls: totals.calls + 1,
      usd: totals.usd + (entry.costUsd ?? 0),
      // A call recorded before prices existed has no cost either way.
      unpriced: totals.unpriced + (entry.costUsd === undefined ? 1 : 0),
      ...((reason ?? totals.unpricedReason) ? { unpricedReason: reason ?? totals.unpricedReason } : {}),
    };
  }
  return totals;
}

/** A thread's running token total: every model call of every message. */
export function threadTokenTotals(messages: readonly Message[]): TokenTotals {
  return sumUsage(messages.flatMap((m) => m.trace));
}

/** Everything the model read: fresh input plus cache reads and writes (the API counts them apart). */
export const totalInput = (t: Usage): number => t.input + t.cacheRead + t.cacheWrite;
