// Deleting a thread frees no spending limit: the model calls its recent messages made are kept in its profile
// (`usageOfDeleted`) for as long as a limit's window can count them, and read back with the stored messages' usage.
import { Message } from '../domain/message';
import { CountedUsage, KEEP_DELETED_USAGE_MS, usageToKeep, type TracedUsage } from '../domain/usage-limits';
import type { WriteTx } from './records';

/** The most entries kept (the newest), so that the profile record stays small whatever happens. */
const MAX_KEPT = 10_000;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The kept entries of a raw profile record still inside the window at `now` (unreadable ones left out). */
export function keptUsage(profile: unknown, since: number): CountedUsage[] {
  const entries = isRecord(profile) && Array.isArray(profile.usageOfDeleted) ? profile.usageOfDeleted : [];
  return entries.flatMap((entry: unknown) => {
    const parsed = CountedUsage.safeParse(entry);
    return parsed.success && parsed.data.updatedAt >= since ? [parsed.data] : [];
  });
}

/** In a thread's delete transaction: adds its messages' recent usage to its profile, and drops what has expired. */
export async function keepUsageOfThread(
  tx: WriteTx<['threads', 'messages', 'compactions', 'attachments', 'profiles']>,
  threadId: string,
  profileId: unknown,
  now: number,
): Promise<void> {
  if (typeof profileId !== 'string') return;
  const since = now - KEEP_DELETED_USAGE_MS;
  const raw = await tx
    .objectStore('messages')
    .index('byThreadSeq')
    .getAll(IDBKeyRange.bound([threadId, 0], [threadId, Infinity]));
  // Only recent messages are read whole (a long thread's older ones cannot count any more).
  const recent = raw.filter((m) => isRecord(m) && typeof m.updatedAt === 'number' && m.updatedAt >= since);
  const messages = recent.flatMap((m): TracedUsage[] => {
    const parsed = Message.safeParse(m);
    return parsed.success ? [parsed.data] : [];
  });
  const added = usageToKeep(messages, now);
  const profiles = tx.objectStore('profiles');
  const profile = await profiles.get(profileId);
  if (!profile) return;
  const kept = keptUsage(profile, since);
  const before = Array.isArray(profile.usageOfDeleted) ? profile.usageOfDeleted.length : 0;
  if (added.length === 0 && kept.length === before) return;
  await profiles.put({ ...profile, usageOfDeleted: [...kept, ...added].slice(-MAX_KEPT) });
}
