import type { Loaded } from '../domain/errors';
import { ContextCompaction, type NewContextCompaction } from '../domain/compaction';
import { parseOrThrow } from '../domain/validation';
import { keyField, parseEach, writeTransaction } from './records';
import type { StorageContext } from './storage-context';

/** The compactions of threads' model context, oldest first; the thread's messages are never touched. */
export interface CompactionsRepo {
  list(threadId: string): Promise<Loaded<ContextCompaction>>;
  /** Stores one compaction of the thread's context. */
  add(threadId: string, input: NewContextCompaction): Promise<ContextCompaction>;
}

/** The compactions repository over IndexedDB. */
export function createCompactionsRepo({ db, bus, now, newId }: StorageContext): CompactionsRepo {
  const threadRange = (threadId: string) => IDBKeyRange.bound([threadId, 0], [threadId, Infinity]);
  return {
    async list(threadId: string): Promise<Loaded<ContextCompaction>> {
      return parseEach(
        ContextCompaction,
        'compaction',
        await db.getAllFromIndex('compactions', 'byThread', threadRange(threadId)),
        keyField('id'),
      );
    },

    /** Stores one compaction of the thread's context. */
    async add(threadId: string, input: NewContextCompaction): Promise<ContextCompaction> {
      const record = parseOrThrow(
        ContextCompaction,
        { ...input, id: newId(), threadId, createdAt: now() },
        'Compaction',
      );
      await writeTransaction(db, ['compactions'], async (tx) => {
        await tx.objectStore('compactions').add(record);
      });
      // Announced as a change of the thread's messages: the thread view shows both and reloads them together.
      bus.publish({ store: 'messages', threadId });
      return record;
    },
  };
}
