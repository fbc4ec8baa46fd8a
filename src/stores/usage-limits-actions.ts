import type { AppConfig } from '../domain/app-config';
import { describeError } from '../domain/errors';
import {
  countUsage,
  HOUR_MS,
  localDay,
  UsageLimitOverrides,
  type UsageCounts,
  type UsageLimits,
} from '../domain/usage-limits';
import type { Storage } from '../storage/storage';
import { limitValue } from './limit-input';

export { limitValue, parseThreadSpendCap } from './limit-input';

/** The limits, in the order Settings shows them. */
export const LIMIT_FIELDS = [
  ['maxServersPerThread', 'Servers per thread'],
  ['maxCallsPerHour', 'Model calls per hour'],
  ['maxTokensPerDay', 'Tokens per day'],
  ['maxThreadCostUsd', 'Spend per thread (USD)'],
] as const satisfies readonly (readonly [keyof UsageLimits, string])[];

/** What Settings shows: the profile's own values ('' = the app's default, '0' = no limit), the app's, and usage now. */
export interface LimitsView {
  readonly own: Readonly<Record<keyof UsageLimits, string>>;
  readonly appDefaults: UsageLimits;
  readonly usage: UsageCounts;
}

export interface LimitsDeps {
  readonly storage: Storage;
  readonly profileId: string;
  readonly defaults: AppConfig['defaults'];
  readonly now: () => number;
}

/** The profile's limits as Settings edits them, and what was used in the windows they count. */
export async function loadLimits({ storage, profileId, defaults, now }: LimitsDeps): Promise<LimitsView> {
  const profile = await storage.profiles.get(profileId);
  const own = profile?.preferences.limits ?? {};
  const time = now();
  const day = localDay(time);
  const records = await storage.usage.since(profileId, Math.min(day.start, time - HOUR_MS));
  const text = (value: number | null | undefined) => (value === null ? '0' : value === undefined ? '' : String(value));
  return {
    own: {
      maxServersPerThread: text(own.maxServersPerThread),
      maxCallsPerHour: text(own.maxCallsPerHour),
      maxTokensPerDay: text(own.maxTokensPerDay),
      maxThreadCostUsd: text(own.maxThreadCostUsd),
    },
    appDefaults: defaults.limits,
    usage: countUsage(records, time, day),
  };
}

/** Saves the profile's limits from the form's text: blank keeps the app's default, 0 means no limit. Errors by field. */
export async function saveLimits(
  { storage, profileId }: LimitsDeps,
  input: Readonly<Record<keyof UsageLimits, string>>,
): Promise<Record<string, string>> {
  const value = (text: string) => limitValue(text);
  const parsed = UsageLimitOverrides.safeParse({
    maxServersPerThread: value(input.maxServersPerThread),
    maxCallsPerHour: value(input.maxCallsPerHour),
    maxTokensPerDay: value(input.maxTokensPerDay),
    maxThreadCostUsd: value(input.maxThreadCostUsd),
  });
  if (!parsed.success)
    return Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0] ?? 'form'), issue.message]));
  try {
    const limits = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
    await storage.profiles.update(profileId, (p) => ({ ...p, preferences: { ...p.preferences, limits } }));
    return {};
  } catch (error) {
    return { form: describeError(error) };
  }
}
