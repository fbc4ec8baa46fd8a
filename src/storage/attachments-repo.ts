import { writeTransaction } from './records';
import type { StorageContext } from './storage-context';

/** One attachment's bytes to store, under the id its message names. */
export interface AttachmentBytes {
  readonly id: string;
  readonly blob: Blob;
}

/** The bytes of message attachments, stored as blobs apart from the messages (deleted with their thread). */
export interface AttachmentsRepo {
  /** Stores the attachments of a message about to be sent, all or none (a full disk stores none). */
  put(threadId: string, items: readonly AttachmentBytes[]): Promise<void>;
  /** An attachment's bytes; undefined when they are not stored (deleted, or written by another profile's cleanup). */
  get(id: string): Promise<Blob | undefined>;
}

export function createAttachmentsRepo({ db, now }: StorageContext): AttachmentsRepo {
  return {
    async put(threadId, items) {
      if (items.length === 0) return;
      const time = now();
      await writeTransaction(db, ['attachments'], async (tx) => {
        for (const item of items)
          await tx.objectStore('attachments').put({ id: item.id, threadId, blob: item.blob, createdAt: time });
      });
    },
    async get(id) {
      const record = await db.get('attachments', id);
      return record?.blob instanceof Blob ? record.blob : undefined;
    },
  };
}
