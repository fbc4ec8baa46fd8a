import { DraftAttachment } from '../domain/attachment';
import { CorruptRecordError } from '../domain/errors';
import { parseRecord, writeTransaction } from './records';
import type { StorageContext } from './storage-context';

/** The meta store's key of a thread's unsent attachments (deleted with the thread: threads-repo, profiles-repo). */
export const draftAttachmentsKey = (threadId: string): string => `draft-attachments:${threadId}`;

/** A stored attachment that could not be read back: its name when that much was readable, and why. */
export interface DroppedDraftAttachment {
  readonly name?: string;
  readonly error: CorruptRecordError;
}

/** A thread's unsent attachments read back: those that are whole, and those dropped as unreadable. */
export interface StoredDraftAttachments {
  readonly items: DraftAttachment[];
  readonly dropped: DroppedDraftAttachment[];
}

/** The attachments of each thread's message box, kept across reloads like its text (drafts-repo). */
export interface DraftAttachmentsRepo {
  /** The thread's unsent attachments, each parsed on its own: an unreadable one is dropped, the others kept. */
  get(threadId: string): Promise<StoredDraftAttachments>;
  /** Keeps `items` as the thread's unsent attachments; none forgets them. */
  put(threadId: string, items: readonly DraftAttachment[]): Promise<void>;
}

const STORE = 'meta';

/** The name an unreadable stored attachment says it has, if it says one. */
function nameIn(value: unknown): string | undefined {
  const ref = typeof value === 'object' && value !== null ? (value as { ref?: unknown }).ref : undefined;
  const name = typeof ref === 'object' && ref !== null ? (ref as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

export function createDraftAttachmentsRepo({ db }: Pick<StorageContext, 'db'>): DraftAttachmentsRepo {
  return {
    async get(threadId) {
      const key = draftAttachmentsKey(threadId);
      const record = await db.get('meta', key);
      if (record === undefined) return { items: [], dropped: [] };
      const stored = (record.value as { items?: unknown } | undefined)?.items;
      if (!Array.isArray(stored))
        return {
          items: [],
          dropped: [{ error: new CorruptRecordError(STORE, key, [{ path: 'items', message: 'not a list' }]) }],
        };
      const items: DraftAttachment[] = [];
      const dropped: DroppedDraftAttachment[] = [];
      stored.forEach((value: unknown, i) => {
        try {
          items.push(parseRecord(DraftAttachment, STORE, `${key}#${i}`, value));
        } catch (error) {
          if (!(error instanceof CorruptRecordError)) throw error;
          const name = nameIn(value);
          dropped.push({ error, ...(name === undefined ? {} : { name }) });
        }
      });
      return { items, dropped };
    },
    async put(threadId, items) {
      await writeTransaction(db, ['meta'], async (tx) => {
        const key = draftAttachmentsKey(threadId);
        if (items.length === 0) await tx.objectStore('meta').delete(key);
        else
          await tx.objectStore('meta').put({
            key,
            value: { items: items.map(({ ref, blob, note }) => ({ ref, blob, ...(note ? { note } : {}) })) },
          });
      });
    },
  };
}
