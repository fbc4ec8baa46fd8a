import { NotFoundError, type Loaded } from '../domain/errors';
import { Message, type NewMessage } from '../domain/message';
import { parseOrThrow } from '../domain/validation';
import { keyField, parseEach, parseRecord, writeTransaction } from './records';
import type { StorageContext } from './storage-context';

export type MessageChange = Partial<Pick<Message, 'blocks' | 'status' | 'error' | 'trace'>>;

/** Messages of threads, in order; a streaming answer is updated in place as it grows. */
export interface MessagesRepo {
  list(threadId: string): Promise<Loaded<Message>>;
  append(threadId: string, input: NewMessage): Promise<Message>;
  update(id: string, change: MessageChange): Promise<Message>;
  /** Marks the thread's answers left streaming as interrupted with `note`; resolves to how many. */
  markInterrupted(threadId: string, note: string): Promise<number>;
}

export function createMessagesRepo({ db, bus, now, newId }: StorageContext): MessagesRepo {
  const threadRange = (threadId: string) => IDBKeyRange.bound([threadId, 0], [threadId, Infinity]);

  return {
    async list(threadId: string): Promise<Loaded<Message>> {
      return parseEach(
        Message,
        'message',
        await db.getAllFromIndex('messages', 'byThreadSeq', threadRange(threadId)),
        keyField('id'),
      );
    },

    /** Appends after the thread's last message and marks the thread as active now. */
    async append(threadId: string, input: NewMessage): Promise<Message> {
      const time = now();
      const message = await writeTransaction(db, ['threads', 'messages'], async (tx) => {
        const thread = await tx.objectStore('threads').get(threadId);
        if (thread === undefined) throw new NotFoundError('thread', threadId);
        const last = await tx.objectStore('messages').index('byThreadSeq').openKeyCursor(threadRange(threadId), 'prev');
        const seq = last ? (last.key[1] ?? 0) + 1 : 0;
        const next = parseOrThrow(
          Message,
          { ...input, id: newId(), threadId, seq, createdAt: time, updatedAt: time },
          'Message',
        );
        await tx.objectStore('messages').add(next);
        await tx.objectStore('threads').put({ ...thread, updatedAt: Math.max(time, thread.updatedAt) });
        return next;
      });
      bus.publish({ store: 'messages', threadId, key: message.id });
      return message;
    },

    /** Replaces the content or status of a message (a streaming answer, a finished tool result). */
    async update(id: string, change: MessageChange): Promise<Message> {
      const message = await writeTransaction(db, ['messages'], async (tx) => {
        const stored = await tx.objectStore('messages').get(id);
        if (stored === undefined) throw new NotFoundError('message', id);
        const next = parseOrThrow(
          Message,
          { ...parseRecord(Message, 'message', id, stored), ...change, updatedAt: now() },
          'Message',
        );
        await tx.objectStore('messages').put(next);
        return next;
      });
      bus.publish({ store: 'messages', threadId: message.threadId, key: id });
      return message;
    },

    /** Marks the thread's answers still "streaming" as interrupted with `note` (their tab closed mid-answer); returns how many. */
    async markInterrupted(threadId: string, note: string): Promise<number> {
      const marked = await writeTransaction(db, ['messages'], async (tx) => {
        const stored = await tx.objectStore('messages').index('byThreadSeq').getAll(threadRange(threadId));
        // Corrupt records are left for list() to report.
        const streaming = stored.flatMap((m) => {
          const parsed = Message.safeParse(m);
          return parsed.success && parsed.data.status === 'streaming' ? [parsed.data] : [];
        });
        for (const message of streaming)
          await tx.objectStore('messages').put({ ...message, status: 'interrupted', error: note, updatedAt: now() });
        return streaming.length;
      });
      if (marked > 0) bus.publish({ store: 'messages', threadId });
      return marked;
    },
  };
}
