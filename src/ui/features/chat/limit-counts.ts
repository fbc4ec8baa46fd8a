import type { LimitCounts } from '../../../domain/trace';
import { dollars } from '../../../domain/money';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The person's limits as one model call's check saw them, in one short line ("Limits: 3 of 50 calls this hour · …");
 * undefined when no limit was set.
 */
export function limitCountsLine(limits: LimitCounts | undefined): string | undefined {
  if (!limits) return undefined;
  const parts = [
    limits.callsThisHour && `${count(limits.callsThisHour.used)} of ${count(limits.callsThisHour.max)} calls this hour`,
    limits.tokensToday && `${count(limits.tokensToday.used)} of ${count(limits.tokensToday.max)} tokens today`,
    limits.threadSpendUsd &&
      `${dollars(limits.threadSpendUsd.used)} of ${dollars(limits.threadSpendUsd.max)} in this thread`,
  ].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? `Limits: ${parts.join(' · ')}` : undefined;
}
