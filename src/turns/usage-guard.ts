import type { ModelPort } from '../agent/model-port';
import type { LimitCounts } from '../domain/trace';
import {
  countUsage,
  HOUR_MS,
  limitReached,
  localDay,
  threadSpend,
  threadSpendProblem,
  ThreadSpendUnpricedError,
  type ThreadSpendLimitError,
  type UsageLimitError,
  type TracedUsage,
  type UsageLimits,
  type UsageRecord,
} from '../domain/usage-limits';

/** Reads the profile's stored usage since a time (the usage repository). */
export type ReadUsage = (profileId: string, since: number) => Promise<UsageRecord[]>;

/** What the check before a model call found: the limit it would pass (if any) and the counts of the limits set. */
export interface LimitCheck {
  readonly problem?: UsageLimitError | ThreadSpendLimitError | ThreadSpendUnpricedError;
  readonly counts?: LimitCounts;
}

/**
 * The hourly and daily limits before the next model call, counted from every thread of the profile: the limit it
 * would pass (if any) and the counts of the limits that are set. Never reads when neither is set.
 */
export async function usageLimitCheck(
  readUsage: ReadUsage,
  profileId: string,
  limits: UsageLimits,
  now: number,
): Promise<LimitCheck> {
  const { maxCallsPerHour, maxTokensPerDay } = limits;
  if (maxCallsPerHour === undefined && maxTokensPerDay === undefined) return {};
  const day = localDay(now);
  const records = await readUsage(profileId, Math.min(day.start, now - HOUR_MS));
  const usage = countUsage(records, now, day);
  const problem = limitReached(limits, usage, now);
  return {
    ...(problem ? { problem } : {}),
    counts: {
      ...(maxCallsPerHour !== undefined ? { callsThisHour: { used: usage.callsLastHour, max: maxCallsPerHour } } : {}),
      ...(maxTokensPerDay !== undefined ? { tokensToday: { used: usage.tokensToday, max: maxTokensPerDay } } : {}),
    },
  };
}

/** Reads a thread's stored messages (their traces hold each model call's cost). */
export type ReadThread = () => Promise<readonly TracedUsage[]>;

/**
 * The thread's spend against its cap (and the cap as an error when reached, or when the call's model has no price,
 * so its spend could not be counted: `unpricedModel`); never reads when there is no cap.
 */
export async function threadSpendLimitCheck(
  readThread: ReadThread,
  maxUsd: number | undefined,
  unpricedModel?: string,
): Promise<LimitCheck> {
  if (maxUsd === undefined) return {};
  const spent = threadSpend(await readThread());
  const problem =
    threadSpendProblem(maxUsd, spent) ??
    (unpricedModel !== undefined ? new ThreadSpendUnpricedError(unpricedModel, maxUsd) : undefined);
  return { ...(problem ? { problem } : {}), counts: { threadSpendUsd: { used: spent, max: maxUsd } } };
}

/** Both checks' findings as one: the first problem, and the counts of both. */
export function mergeLimitChecks(a: LimitCheck, b: LimitCheck): LimitCheck {
  const problem = a.problem ?? b.problem;
  const counts = a.counts || b.counts ? { ...a.counts, ...b.counts } : undefined;
  return { ...(problem ? { problem } : {}), ...(counts ? { counts } : {}) };
}

/**
 * The model, checked against the person's limits before every call: a call past one is never sent; a call that goes
 * carries the counts the check saw in its result (for the call's trace).
 */
export function withUsageLimits(model: ModelPort, check: (modelId: string) => Promise<LimitCheck>): ModelPort {
  return {
    listModels: () => model.listModels(),
    ...(model.contextWindow ? { contextWindow: (id: string) => model.contextWindow!(id) } : {}),
    async stream(request, onSnapshot, signal, onRetry) {
      const { problem, counts } = await check(request.model);
      if (problem) throw problem;
      const result = await model.stream(request, onSnapshot, signal, onRetry);
      return counts ? { ...result, limits: counts } : result;
    },
  };
}
