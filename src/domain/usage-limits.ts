// Limits a person sets on what a runaway agent loop can spend on their own key: model calls per hour, tokens per day
// (in the profile's local day), servers per thread. Counted from the stored usage of every thread of the profile.
import { z } from 'zod';
import { AppError } from './errors';
import { dollars } from './money';
import { spendCapProblem } from './spend-cap';
import type { TraceEntry } from './trace';

const Limit = (what: string) =>
  z
    .number({ error: () => `${what} must be a number` })
    .int(`${what} must be a whole number`)
    .min(1, `${what} must be at least 1 (0 means no limit)`);

/** A cap in dollars: more than $0 (0 in a form means "no cap"), at most $100,000. */
export const SpendCapUsd = z
  .number({ error: () => 'Spend per thread must be a number of dollars' })
  .superRefine((usd, context) => {
    const problem = spendCapProblem(usd);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** Each limit unset means no limit; a profile's value wins over the app's default. */
export const UsageLimits = z.object({
  maxServersPerThread: Limit('Servers per thread').optional(),
  maxCallsPerHour: Limit('Model calls per hour').optional(),
  maxTokensPerDay: Limit('Tokens per day').optional(),
  /** Dollars one thread may spend (its model calls at the price table's prices); a thread may set its own. */
  maxThreadCostUsd: SpendCapUsd.optional(),
});
export type UsageLimits = z.infer<typeof UsageLimits>;

/** A profile's limits: a number overrides the app's default, null removes it, absent keeps it. */
export const UsageLimitOverrides = z.object({
  maxServersPerThread: Limit('Servers per thread').nullable().optional(),
  maxCallsPerHour: Limit('Model calls per hour').nullable().optional(),
  maxTokensPerDay: Limit('Tokens per day').nullable().optional(),
  maxThreadCostUsd: SpendCapUsd.nullable().optional(),
});
export type UsageLimitOverrides = z.infer<typeof UsageLimitOverrides>;

/** The profile's limits over the app's: a field the profile sets wins; `null` in the profile means "no limit". */
export function resolveUsageLimits(
  app: UsageLimits,
  profile: { readonly [K in keyof UsageLimits]?: number | null },
): UsageLimits {
  const pick = (key: keyof UsageLimits) => {
    const value = profile[key] === undefined ? app[key] : profile[key];
    return value === null || value === undefined ? {} : { [key]: value };
  };
  return {
    ...pick('maxServersPerThread'),
    ...pick('maxCallsPerHour'),
    ...pick('maxTokensPerDay'),
    ...pick('maxThreadCostUsd'),
  };
}

/** A stored message as far as usage goes: when it was last written, and its trace. */
export interface TracedUsage {
  readonly updatedAt: number;
  readonly trace: readonly TraceEntry[];
}

/** The model calls of a message of a deleted thread, kept in its profile so that deleting a thread frees no limit. */
export const CountedUsage = z.object({
  updatedAt: z.number(),
  calls: z.number().int().nonnegative(),
  tokens: z.number().nonnegative(),
});
export type CountedUsage = z.infer<typeof CountedUsage>;

/** What the limits count: a stored message, or what a deleted one had used. */
export type UsageRecord = TracedUsage | CountedUsage;

/** What the profile used in the windows the limits count. */
export interface UsageCounts {
  readonly callsLastHour: number;
  readonly tokensToday: number;
  /** When the oldest call of the last hour leaves the window (a call slot frees up). */
  readonly nextCallFreesAt?: number;
  readonly dayEndsAt: number;
}

export const HOUR_MS = 60 * 60 * 1000;

/** Midnight that starts the local day of `now`, and the next one (DST-safe: computed from calendar dates). */
export function localDay(now: number): { readonly start: number; readonly end: number } {
  const date = new Date(now);
  const start = new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
  const end = new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1).getTime();
  return { start, end };
}

/** Every token a model call used: input (fresh, cache written, cache read) and output. */
const tokensOf = (entry: TraceEntry) =>
  entry.kind === 'model-call' && entry.usage
    ? entry.usage.input + entry.usage.output + entry.usage.cacheRead + entry.usage.cacheWrite
    : 0;

/** How long a deleted thread's usage is kept: the longest window a limit counts (a local day, DST included). */
export const KEEP_DELETED_USAGE_MS = 26 * HOUR_MS;

/** The model calls and tokens of one record. */
function callsAndTokens(record: UsageRecord): CountedUsage {
  if (!('trace' in record)) return record;
  const calls = record.trace.filter((e) => e.kind === 'model-call' && e.usage).length;
  return { updatedAt: record.updatedAt, calls, tokens: record.trace.reduce((sum, e) => sum + tokensOf(e), 0) };
}

/** The usage of a deleted thread's messages that the limits may still count at `now` (those with model calls). */
export function usageToKeep(messages: readonly TracedUsage[], now: number): CountedUsage[] {
  return messages
    .filter((m) => m.updatedAt >= now - KEEP_DELETED_USAGE_MS)
    .map(callsAndTokens)
    .filter((u) => u.calls > 0 || u.tokens > 0);
}

/** Counts the model calls of the last hour and the tokens of the local day from stored messages (and deleted ones'). */
export function countUsage(records: readonly UsageRecord[], now: number, day = localDay(now)): UsageCounts {
  const hourAgo = now - HOUR_MS;
  let callsLastHour = 0;
  let tokensToday = 0;
  let oldestCall = Infinity;
  for (const record of records) {
    const { calls, tokens } = callsAndTokens(record);
    if (record.updatedAt > hourAgo && calls > 0) {
      callsLastHour += calls;
      oldestCall = Math.min(oldestCall, record.updatedAt);
    }
    if (record.updatedAt >= day.start) tokensToday += tokens;
  }
  return {
    callsLastHour,
    tokensToday,
    ...(oldestCall < Infinity ? { nextCallFreesAt: oldestCall + HOUR_MS } : {}),
    dayEndsAt: day.end,
  };
}

const clock = (time: number) =>
  new Date(time).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', hour12: false });
const count = (n: number) => n.toLocaleString('en-US');

/** A turn stopped before a model call because a limit the person set was reached. */
export class UsageLimitError extends AppError {
  readonly kind = 'usage-limit';
  constructor(
    readonly limit: 'calls-per-hour' | 'tokens-per-day',
    readonly used: number,
    readonly max: number,
    readonly resetsAt: number,
  ) {
    super(
      limit === 'calls-per-hour'
        ? `Stopped before the model call: the limit of ${count(max)} model call${max === 1 ? '' : 's'} per hour is reached (${count(used)} in the last hour). A call is allowed again at ${clock(resetsAt)}; raise the limit in Settings or Retry then. Nothing of this thread is lost.`
        : `Stopped before the model call: the limit of ${count(max)} tokens per day is reached (${count(used)} used today). It resets at midnight (${clock(resetsAt)}); raise the limit in Settings or Retry then. Nothing of this thread is lost.`,
    );
    this.name = 'UsageLimitError';
  }
}

/** The limit a next model call would pass, as an error to show; undefined when the call may go. */
export function limitReached(limits: UsageLimits, usage: UsageCounts, now: number): UsageLimitError | undefined {
  if (limits.maxCallsPerHour !== undefined && usage.callsLastHour >= limits.maxCallsPerHour)
    return new UsageLimitError(
      'calls-per-hour',
      usage.callsLastHour,
      limits.maxCallsPerHour,
      usage.nextCallFreesAt ?? now + HOUR_MS,
    );
  if (limits.maxTokensPerDay !== undefined && usage.tokensToday >= limits.maxTokensPerDay)
    return new UsageLimitError('tokens-per-day', usage.tokensToday, limits.maxTokensPerDay, usage.dayEndsAt);
  return undefined;
}

/** Why one more server cannot be switched on in a thread, or undefined. */
export function serverLimitProblem(limits: UsageLimits, enabledCount: number): string | undefined {
  const max = limits.maxServersPerThread;
  return max !== undefined && enabledCount >= max
    ? `At most ${max} server${max === 1 ? '' : 's'} can be on in a thread (your limit in Settings); switch one off first.`
    : undefined;
}

/** The servers a new thread starts with: the profile's defaults, cut to the servers-per-thread limit with a note why. */
export function newThreadServers(
  limits: UsageLimits,
  defaultIds: readonly string[],
): { readonly ids: readonly string[]; readonly note?: string } {
  const max = limits.maxServersPerThread;
  if (max === undefined || defaultIds.length <= max) return { ids: defaultIds };
  return {
    ids: defaultIds.slice(0, max),
    note: `This thread starts with ${max} of your ${defaultIds.length} default servers: at most ${max} can be on in a thread (your limit in Settings). Choose which in the thread's servers.`,
  };
}

/** The thread's spend cap: its own (null: none in this thread), else the profile's over the app's; undefined: none. */
export function threadSpendCap(limits: UsageLimits, own: number | null | undefined): number | undefined {
  return own === null ? undefined : (own ?? limits.maxThreadCostUsd);
}

/** Dollars a thread's stored model calls cost (a call of a model without a price counts nothing). */
export function threadSpend(messages: readonly { readonly trace: readonly TraceEntry[] }[]): number {
  let usd = 0;
  for (const message of messages)
    for (const entry of message.trace) if (entry.kind === 'model-call') usd += entry.costUsd ?? 0;
  return usd;
}

/** A turn stopped before a model call because the thread spent its cap in dollars. */
export class ThreadSpendLimitError extends AppError {
  readonly kind = 'thread-spend-limit';
  constructor(
    readonly spentUsd: number,
    readonly maxUsd: number,
  ) {
    super(
      `Stopped before the model call: this thread's spend cap of ${dollars(maxUsd)} is reached (${dollars(spentUsd)} spent in this thread). Raise the cap in the thread's settings (or the default in Settings) and Retry. Nothing of this thread is lost.`,
    );
    this.name = 'ThreadSpendLimitError';
  }
}

/** A turn stopped before a model call because the thread has a spend cap but the call's model has no price. */
export class ThreadSpendUnpricedError extends AppError {
  readonly kind = 'thread-spend-unpriced';
  constructor(
    readonly model: string,
    readonly maxUsd: number,
  ) {
    super(
      `Stopped before the model call: this thread has a spend cap of ${dollars(maxUsd)}, but ${model} has no price in the app's price table, so what it spends cannot be counted. Choose a model with a price, or turn the cap off for this thread, and Retry. Nothing of this thread is lost.`,
    );
    this.name = 'ThreadSpendUnpricedError';
  }
}

/** The thread's cap as an error when its spend reached it; undefined when the next call may go. */
export function threadSpendProblem(maxUsd: number | undefined, spentUsd: number): ThreadSpendLimitError | undefined {
  return maxUsd !== undefined && spentUsd >= maxUsd ? new ThreadSpendLimitError(spentUsd, maxUsd) : undefined;
}
