import { ContextCompaction } from '../domain/compaction';
import { ValidationError } from '../domain/errors';
import { Message } from '../domain/message';
import { ThreadConfig } from '../domain/thread-config';
import type { BackedUpThread } from '../domain/threads-backup-file';
import { fromBase64, toBase64 } from './base64';
import { keyField, parseEach, parseForWrite, parseRecord, writeTransaction } from './records';
import type { StorageContext } from './storage-context';

/** Everything stored of one thread, every branch included; attachments' bytes as base64 with the blob's MIME type. */
export interface ThreadRecords {
  readonly thread: ThreadConfig;
  readonly messages: readonly Message[];
  readonly compactions: readonly ContextCompaction[];
  readonly attachments: readonly { readonly id: string; readonly mimeType: string; readonly data: string }[];
  /** Records that failed their schema (left out, as the thread view leaves them out). */
  readonly skipped: number;
}

/**
 * What adding a thread from a backup did: stored it; found its id taken here, here by a thread waiting for Undo of its
 * deletion, or in another profile; or found a message naming a file (with no bytes in the backup) stored here for
 * another thread, which the imported thread would then read and send as its own.
 */
export type AddedThread = 'added' | 'here' | 'deleting' | 'elsewhere' | 'foreign-attachment';

/** Whole threads in and out, for the threads backup (Settings › Threads backup). */
export interface ThreadArchiveRepo {
  /** The thread with all its messages, compactions and attachments, read in one transaction; undefined if gone. */
  read(threadId: string): Promise<ThreadRecords | undefined>;
  /**
   * Stores a checked thread of a backup into the profile with all its records in one transaction: all or nothing (a
   * full disk stores nothing of it). A thread whose id is taken is left as it is. Announces nothing: see `announce`.
   */
  add(profileId: string, backup: BackedUpThread): Promise<AddedThread>;
  /** Tells every tab the profile's threads changed (once after an import, rather than once per thread). */
  announce(profileId: string): void;
}

export function createThreadArchiveRepo({ db, bus, now }: StorageContext): ThreadArchiveRepo {
  const threadRange = (threadId: string) => IDBKeyRange.bound([threadId, 0], [threadId, Infinity]);
  return {
    async read(threadId) {
      const tx = db.transaction(['threads', 'messages', 'compactions', 'attachments'], 'readonly');
      const [thread, messages, compactions, attachments] = await Promise.all([
        tx.objectStore('threads').get(threadId),
        tx.objectStore('messages').index('byThreadSeq').getAll(threadRange(threadId)),
        tx.objectStore('compactions').index('byThread').getAll(threadRange(threadId)),
        tx.objectStore('attachments').index('byThread').getAll(threadId),
      ]);
      if (thread === undefined) return undefined;
      const goodMessages = parseEach(Message, 'message', messages, keyField('id'));
      const goodCompactions = parseEach(ContextCompaction, 'compaction', compactions, keyField('id'));
      // Blobs are read after the transaction: awaiting anything but its requests would end it.
      const bytes = await Promise.all(
        attachments
          .filter((record) => record.blob instanceof Blob)
          .map(async (record) => ({
            id: record.id,
            mimeType: record.blob.type,
            data: toBase64(new Uint8Array(await record.blob.arrayBuffer())),
          })),
      );
      return {
        thread: parseRecord(ThreadConfig, 'thread', threadId, thread),
        messages: goodMessages.items,
        compactions: goodCompactions.items,
        attachments: bytes,
        skipped: goodMessages.skipped.length + goodCompactions.skipped.length + attachments.length - bytes.length,
      };
    },

    async add(profileId, backup) {
      const { thread, messages, compactions } = backup;
      // Everything is checked and decoded before the transaction, in which only its requests may be awaited.
      const record = parseForWrite(ThreadConfig, { ...thread, profileId, approvals: {} }, 'Thread');
      const stored = messages.map((m) => parseForWrite(Message, m, 'Message'));
      const blobs = backup.attachments.map((attachment) => {
        try {
          return { id: attachment.id, blob: new Blob([fromBase64(attachment.data)], { type: attachment.mimeType }) };
        } catch {
          throw new ValidationError(`Attachment "${attachment.name}"`, [{ path: 'data', message: 'must be base64' }]);
        }
      });
      // Files the messages name without their bytes in the backup: none may be one stored here (for another thread).
      const held = new Set(backup.attachments.map((a) => a.id));
      const namedOnly = [
        ...new Set(messages.flatMap((m) => m.attachments ?? []).flatMap((ref) => (held.has(ref.id) ? [] : [ref.id]))),
      ];
      const time = now();
      const stores: ['threads', 'messages', 'compactions', 'attachments'] = [
        'threads',
        'messages',
        'compactions',
        'attachments',
      ];
      return writeTransaction(db, stores, async (tx): Promise<AddedThread> => {
        const existing = await tx.objectStore('threads').get(thread.id);
        if (existing !== undefined)
          return existing.profileId !== profileId
            ? 'elsewhere'
            : existing.deletedAt !== undefined
              ? 'deleting'
              : 'here';
        for (const id of namedOnly)
          if ((await tx.objectStore('attachments').get(id)) !== undefined) return 'foreign-attachment';
        await tx.objectStore('threads').add(record);
        for (const message of stored) await tx.objectStore('messages').add(message);
        for (const compaction of compactions) await tx.objectStore('compactions').add(compaction);
        for (const { id, blob } of blobs)
          await tx.objectStore('attachments').add({ id, threadId: thread.id, blob, createdAt: time });
        return 'added';
      });
    },

    announce(profileId) {
      bus.publish({ store: 'threads', profileId });
    },
  };
}
