import { DROPPED_APPROVALS_KEY, type DroppedApproval } from '../platform/approvals-migration';
import { writeTransaction } from './records';
import type { StorageContext } from './storage-context';

export type { DroppedApproval } from '../platform/approvals-migration';

const isDropped = (value: unknown): value is DroppedApproval =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as DroppedApproval).profileId === 'string' &&
  typeof (value as DroppedApproval).key === 'string' &&
  typeof (value as DroppedApproval).place === 'string';

/** The notice of approvals dropped by the storage upgrade, handed out once per profile. */
/** Approvals the storage upgrade dropped, kept until the profile's notice has shown them once. */
export interface ApprovalNoticesRepo {
  /** The profile's dropped approvals, removed from storage as they are read: the notice shows once. */
  take(profileId: string): Promise<DroppedApproval[]>;
}

export function createApprovalNoticesRepo({ db }: Pick<StorageContext, 'db'>): ApprovalNoticesRepo {
  return {
    /** The profile's dropped approvals, removed from storage as they are read: the notice shows once. */
    async take(profileId: string): Promise<DroppedApproval[]> {
      return writeTransaction(db, ['meta'], async (tx) => {
        const meta = tx.objectStore('meta');
        const record = await meta.get(DROPPED_APPROVALS_KEY);
        const all = Array.isArray(record?.value) ? record.value.filter(isDropped) : [];
        const mine = all.filter((d) => d.profileId === profileId);
        if (mine.length === 0) return [];
        const rest = all.filter((d) => d.profileId !== profileId);
        if (rest.length > 0) await meta.put({ key: DROPPED_APPROVALS_KEY, value: rest });
        else await meta.delete(DROPPED_APPROVALS_KEY);
        return mine;
      });
    },
  };
}
