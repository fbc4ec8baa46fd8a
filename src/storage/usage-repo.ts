import { Message } from '../domain/message';
import type { UsageRecord } from '../domain/usage-limits';
import { deletedUsageKey, keptUsage } from './deleted-usage';
import { keyField, parseEach } from './records';
import type { StorageContext } from './storage-context';

/** No model call lasts this long: a thread last active before `since` minus this cannot hold a call ending after `since`. */
const LONGEST_CALL_MS = 6 * 60 * 60 * 1000;

/** The stored usage of a profile's threads, for the limits a person sets on spending. */
export interface UsageRepo {
  /**
   * Messages of the profile's threads written at or after `since` (their traces hold the model calls' usage), and
   * the usage kept of deleted threads' messages of that time.
   */
  since(profileId: string, since: number): Promise<UsageRecord[]>;
}

export function createUsageRepo({ db }: StorageContext): UsageRepo {
  return {
    async since(profileId: string, since: number): Promise<UsageRecord[]> {
      const active = IDBKeyRange.bound([profileId, since - LONGEST_CALL_MS], [profileId, Infinity]);
      const threadIds = (await db.getAllKeysFromIndex('threads', 'byProfileUpdated', active)).map(String);
      const records: UsageRecord[] = [];
      for (const threadId of threadIds) {
        const range = IDBKeyRange.bound([threadId, 0], [threadId, Infinity]);
        const loaded = parseEach(
          Message,
          'message',
          await db.getAllFromIndex('messages', 'byThreadSeq', range),
          keyField('id'),
        );
        for (const message of loaded.items)
          if (message.updatedAt >= since) records.push({ updatedAt: message.updatedAt, trace: message.trace });
      }
      // What deleted threads used still counts.
      return [...records, ...keptUsage(await db.get('meta', deletedUsageKey(profileId)), since)];
    },
  };
}
