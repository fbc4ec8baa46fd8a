import { writeTransaction } from './records';
import type { StorageContext } from './storage-context';

/** The meta store's key of a thread's unsent text (deleted with the thread: threads-repo, profiles-repo). */
export const draftKey = (threadId: string): string => `draft:${threadId}`;

/** The unsent text of each thread's message box, kept across reloads (its attachments: draft-attachments-repo). */
export interface DraftsRepo {
  /** The thread's unsent text; undefined when there is none. */
  get(threadId: string): Promise<string | undefined>;
  /** Keeps `text` as the thread's unsent text; empty text forgets it. */
  put(threadId: string, text: string): Promise<void>;
}

export function createDraftsRepo({ db }: Pick<StorageContext, 'db'>): DraftsRepo {
  return {
    async get(threadId) {
      const record = await db.get('meta', draftKey(threadId));
      const value = record?.value as { text?: unknown } | undefined;
      return typeof value?.text === 'string' && value.text !== '' ? value.text : undefined;
    },
    async put(threadId, text) {
      await writeTransaction(db, ['meta'], async (tx) => {
        if (text === '') await tx.objectStore('meta').delete(draftKey(threadId));
        else await tx.objectStore('meta').put({ key: draftKey(threadId), value: { text } });
      });
    },
  };
}
