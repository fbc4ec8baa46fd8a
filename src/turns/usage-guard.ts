import type { ModelPort } from '../agent/model-port';
import {
  countUsage,
  HOUR_MS,
  limitReached,
  localDay,
  threadSpend,
  threadSpendProblem,
  type ThreadSpendLimitError,
  type UsageLimitError,
  type UsageLimits,
  type UsageRecord,
} from '../domain/usage-limits';

/** Reads the profile's stored usage since a time (the usage repository). */
export type ReadUsage = (profileId: string, since: number) => Promise<UsageRecord[]>;

/** The limit the next model call would pass, counted from every thread of the profile; undefined when it may go. */
export async function usageLimitProblem(
  readUsage: ReadUsage,
  profileId: string,
  limits: UsageLimits,
  now: number,
): Promise<UsageLimitError | undefined> {
  if (limits.maxCallsPerHour === undefined && limits.maxTokensPerDay === undefined) return undefined;
  const day = localDay(now);
  const records = await readUsage(profileId, Math.min(day.start, now - HOUR_MS));
  return limitReached(limits, countUsage(records, now, day), now);
}

/** Reads a thread's stored messages (their traces hold each model call's cost). */
export type ReadThread = () => Promise<readonly UsageRecord[]>;

/** The thread's spend cap as an error when its stored model calls reached it; never reads when there is no cap. */
export async function threadSpendLimitProblem(
  readThread: ReadThread,
  maxUsd: number | undefined,
): Promise<ThreadSpendLimitError | undefined> {
  return maxUsd === undefined ? undefined : threadSpendProblem(maxUsd, threadSpend(await readThread()));
}

/** The model, checked against the person's limits before every call: a call past one is never sent. */
export function withUsageLimits(
  model: ModelPort,
  check: () => Promise<UsageLimitError | ThreadSpendLimitError | undefined>,
): ModelPort {
  return {
    listModels: () => model.listModels(),
    ...(model.contextWindow ? { contextWindow: (id: string) => model.contextWindow!(id) } : {}),
    async stream(request, onSnapshot, signal) {
      const problem = await check();
      if (problem) throw problem;
      return model.stream(request, onSnapshot, signal);
    },
  };
}
