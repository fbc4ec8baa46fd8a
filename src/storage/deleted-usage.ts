// Deleting a thread frees no spending limit: the model calls its recent messages made are kept in a record of the
// profile's own (`meta`, key deletedUsageKey) for as long as a limit's window can count them, and read back with the
// stored messages' usage. A record of its own: an entry that cannot be read is skipped, never the profile.
import { Message } from '../domain/message';
import { CountedUsage, KEEP_DELETED_USAGE_MS, usageToKeep, type TracedUsage } from '../domain/usage-limits';
import type { WriteTx } from './records';

/** The most entries kept (the newest), so that the record stays small whatever happens. */
const MAX_KEPT = 10_000;

/** The `meta` key of a profile's kept usage. */
export const deletedUsageKey = (profileId: string) => `deletedUsage:${profileId}`;

/** The kept entries of a `meta` record still inside the window (`since` on); unreadable ones are left out. */
export function keptUsage(record: { readonly value: unknown } | undefined, since: number): CountedUsage[] {
  const entries: unknown[] = Array.isArray(record?.value) ? record.value : [];
  return entries.flatMap((entry) => {
    const parsed = CountedUsage.safeParse(entry);
    return parsed.success && parsed.data.updatedAt >= since ? [parsed.data] : [];
  });
}

/**
 * In a thread's delete transaction: adds the recent usage of its messages (their raw records, read once by the
 * delete) to its profile's, and drops what expired.
 */
export async function keepUsageOfThread(
  tx: WriteTx<['threads', 'messages', 'compactions', 'attachments', 'meta']>,
  raw: readonly unknown[],
  profileId: unknown,
  now: number,
): Promise<void> {
  if (typeof profileId !== 'string') return;
  const since = now - KEEP_DELETED_USAGE_MS;
  // Only the recent messages are checked whole.
  const messages = raw.flatMap((m): TracedUsage[] => {
    const updatedAt = typeof m === 'object' && m !== null ? (m as { updatedAt?: unknown }).updatedAt : undefined;
    if (typeof updatedAt !== 'number' || updatedAt < since) return [];
    const parsed = Message.safeParse(m);
    return parsed.success ? [parsed.data] : [];
  });
  const added = usageToKeep(messages, now);
  const meta = tx.objectStore('meta');
  const key = deletedUsageKey(profileId);
  const record = await meta.get(key);
  const kept = keptUsage(record, since);
  const before = Array.isArray(record?.value) ? record.value.length : 0;
  if (added.length === 0 && kept.length === before) return;
  await meta.put({ key, value: [...kept, ...added].slice(-MAX_KEPT) });
}
