import type { ModelPort } from '../agent/model-port';
import {
  countUsage,
  HOUR_MS,
  limitReached,
  localDay,
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

/** The model, checked against the person's limits before every call: a call past one is never sent. */
export function withUsageLimits(model: ModelPort, check: () => Promise<UsageLimitError | undefined>): ModelPort {
  return {
    listModels: () => model.listModels(),
    async stream(request, onSnapshot, signal) {
      const problem = await check();
      if (problem) throw problem;
      return model.stream(request, onSnapshot, signal);
    },
  };
}
