import { selectBranch, pathTo, type BranchNode } from '../domain/branches';
import { NotFoundError, type Loaded } from '../domain/errors';
import { Message, type NewMessage } from '../domain/message';
import type { MessageMatch } from '../domain/message-text';
import { createMessageSearchIndex } from './message-search-index';
import { parseOrThrow } from '../domain/validation';
import { keyField, parseEach, parseForWrite, parseRecord, writeTransaction } from './records';
import type { StorageContext } from './storage-context';

export type MessageChange = Partial<Pick<Message, 'blocks' | 'status' | 'error' | 'trace' | 'retried'>>;

/** The messages of a thread's shown branch, first to last, and what the thread holds besides (issue #22). */
export interface BranchMessages extends Loaded<Message> {
  /** For each message of the branch that has other versions: every version's id, oldest first. */
  readonly versions: ReadonlyMap<string, readonly string[]>;
  /** The thread's messages on other branches (their model calls count in the thread's token total). */
  readonly offBranch: readonly Message[];
}

/** Messages of threads, in order; a streaming answer is updated in place as it grows. */
export interface MessagesRepo {
  /** The thread's shown branch (a thread stored before branches reads as one branch). */
  list(threadId: string): Promise<BranchMessages>;
  /** The branch's messages up to `leafId` exactly, first to last: what a turn going on from there reads. */
  listTo(threadId: string, leafId: string): Promise<Loaded<Message>>;
  /**
   * Stores a message after `parentId` (null: a new first message; omitted: after the shown branch's last message)
   * and shows its branch from then on.
   */
  append(threadId: string, input: NewMessage, parentId?: string | null): Promise<Message>;
  update(id: string, change: MessageChange): Promise<Message>;
  /** Shows the branch through `messageId` (down through the newest message at each step); resolves to its last one. */
  showBranch(threadId: string, messageId: string): Promise<string>;
  /** Marks the thread's answers left streaming as interrupted with `note`; resolves to how many. */
  markInterrupted(threadId: string, note: string): Promise<number>;
  /**
   * The latest message of each thread's shown branch whose text (as shown: Markdown marks aside) holds `needle`,
   * ignoring case; threads with none are left out.
   */
  search(threadIds: readonly string[], needle: string): Promise<ReadonlyMap<string, MessageMatch>>;
  /** Starts reading these threads' text for `search` in the background (the person is about to search). */
  prepareSearch(threadIds: readonly string[]): void;
}

/** The shown branch's last message, as the thread record keeps it (absent on threads from before branches). */
const shownLeaf = (thread: Record<string, unknown> | undefined): string | undefined =>
  typeof thread?.activeLeafId === 'string' ? thread.activeLeafId : undefined;

export function createMessagesRepo({ db, bus, now, newId, slices }: StorageContext): MessagesRepo {
  const threadRange = (threadId: string) => IDBKeyRange.bound([threadId, 0], [threadId, Infinity]);
  /** The thread's records in seq order, read as branch nodes (a bad parentId makes its record fail the parse later). */
  const nodesOf = async (threadId: string) => {
    const tx = db.transaction(['threads', 'messages'], 'readonly');
    const [thread, records] = await Promise.all([
      tx.objectStore('threads').get(threadId),
      tx.objectStore('messages').index('byThreadSeq').getAll(threadRange(threadId)),
    ]);
    return { leaf: shownLeaf(thread), nodes: records as (BranchNode & (typeof records)[number])[] };
  };

  // The search reads the threads' text kept in memory, filled in background slices and kept current by the bus.
  const searchIndex = createMessageSearchIndex({ db, bus, slices });

  return {
    async list(threadId: string): Promise<BranchMessages> {
      const { leaf, nodes } = await nodesOf(threadId);
      // The branch is found on the raw records, so a corrupt record is skipped without cutting its branch short.
      const branch = selectBranch(nodes, leaf);
      const shown = parseEach(Message, 'message', branch.path, keyField('id'));
      const others = parseEach(Message, 'message', branch.offPath, keyField('id'));
      return {
        items: shown.items,
        skipped: [...shown.skipped, ...others.skipped],
        versions: branch.versions,
        offBranch: others.items,
      };
    },

    async listTo(threadId: string, leafId: string): Promise<Loaded<Message>> {
      const { nodes } = await nodesOf(threadId);
      return parseEach(Message, 'message', pathTo(nodes, leafId), keyField('id'));
    },

    /** Appends after `parentId` (the shown branch's end by default) and marks the thread as active now. */
    async append(threadId: string, input: NewMessage, parentId?: string | null): Promise<Message> {
      const time = now();
      const message = await writeTransaction(db, ['threads', 'messages'], async (tx) => {
        const thread = await tx.objectStore('threads').get(threadId);
        if (thread === undefined) throw new NotFoundError('thread', threadId);
        const last = await tx.objectStore('messages').index('byThreadSeq').openKeyCursor(threadRange(threadId), 'prev');
        const seq = last ? (last.key[1] ?? 0) + 1 : 0;
        const after = parentId !== undefined ? parentId : (shownLeaf(thread) ?? (last ? last.primaryKey : null));
        const candidate = { ...input, id: newId(), threadId, seq, parentId: after, createdAt: time, updatedAt: time };
        const next = parseForWrite(Message, candidate, 'Message');
        await tx.objectStore('messages').add(next);
        await tx
          .objectStore('threads')
          .put({ ...thread, activeLeafId: next.id, updatedAt: Math.max(time, thread.updatedAt) });
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

    async showBranch(threadId: string, messageId: string): Promise<string> {
      const leaf = await writeTransaction(db, ['threads', 'messages'], async (tx) => {
        const thread = await tx.objectStore('threads').get(threadId);
        if (thread === undefined) throw new NotFoundError('thread', threadId);
        const nodes = await tx.objectStore('messages').index('byThreadSeq').getAll(threadRange(threadId));
        if (!nodes.some((n) => n.id === messageId)) throw new NotFoundError('message', messageId);
        const end = selectBranch(nodes as (BranchNode & (typeof nodes)[number])[], messageId).path.at(-1)!.id;
        // Not a change of the thread's activity: updatedAt stays, so the thread list keeps its order.
        await tx.objectStore('threads').put({ ...thread, activeLeafId: end });
        return end;
      });
      bus.publish({ store: 'messages', threadId });
      return leaf;
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

    search: (threadIds, needle) => searchIndex.search(threadIds, needle),
    prepareSearch: (threadIds) => searchIndex.prepare(threadIds),
  };
}
