import { StoredApproval } from '../domain/server-trust';
import type { UpgradeTransaction } from './database-schema';

/** Where the notice of approvals dropped by the v3 migration waits (in `meta`) until its profile opens. */
export const DROPPED_APPROVALS_KEY = 'droppedApprovals';

/** An approval dropped because it was stored without the server origin it was given for. */
export interface DroppedApproval {
  readonly profileId: string;
  /** The approval's key: "server/tool". */
  readonly key: string;
  /** "Always allowed", or the thread it was allowed in. */
  readonly place: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The approvals that name their origin, and the keys of those that do not. */
function splitApprovals(value: unknown): { kept: Record<string, unknown>; dropped: string[] } {
  if (!isRecord(value)) return { kept: {}, dropped: [] };
  const kept: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [key, approval] of Object.entries(value)) {
    if (StoredApproval.safeParse(approval).success) kept[key] = approval;
    else dropped.push(key);
  }
  return { kept, dropped };
}

/**
 * v3: an approval now holds for the server origin it was given for. Those stored before (a hash alone) cannot say
 * which server they trusted, so they are dropped, each named in a notice the person sees once.
 */
export async function dropApprovalsWithoutOrigin(tx: UpgradeTransaction): Promise<void> {
  const dropped: DroppedApproval[] = [];
  const profiles = tx.objectStore('profiles');
  for (let cursor = await profiles.openCursor(); cursor; cursor = await cursor.continue()) {
    const profile = cursor.value;
    const split = splitApprovals(profile.alwaysAllow);
    if (split.dropped.length === 0) continue;
    await cursor.update({ ...profile, alwaysAllow: split.kept });
    for (const key of split.dropped) dropped.push({ profileId: profile.id, key, place: 'Always allowed' });
  }
  const threads = tx.objectStore('threads');
  for (let cursor = await threads.openCursor(); cursor; cursor = await cursor.continue()) {
    const thread = cursor.value;
    const split = splitApprovals(thread.approvals);
    if (split.dropped.length === 0) continue;
    await cursor.update({ ...thread, approvals: split.kept });
    const place = `Allowed in thread "${typeof thread.title === 'string' ? thread.title : thread.id}"`;
    for (const key of split.dropped) dropped.push({ profileId: thread.profileId, key, place });
  }
  if (dropped.length > 0) await tx.objectStore('meta').put({ key: DROPPED_APPROVALS_KEY, value: dropped });
}
