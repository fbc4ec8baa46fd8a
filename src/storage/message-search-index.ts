import { selectBranch, type BranchNode } from '../domain/branches';
import { lastFound, shownText, textMatcher, type MessageMatch, type ShownMessage } from '../domain/message-text';
import type { BackgroundSlices } from '../platform/background-slices';
import type { ChangeBus } from '../platform/change-bus';
import type { AppDatabase } from '../platform/database-schema';

/**
 * The shown text of every thread's shown branch, kept in memory so that a search reads no message (trial 12: 5,379
 * messages read and stripped of Markdown for each search took 0.4-1.0 s). Filled a few threads at a time in
 * background slices, from when a search is near (`prepare`) or asked for; a thread's text is read again once a
 * change to its messages is announced on the bus, by this tab or another.
 */
export interface MessageSearchIndex {
  /** Same as MessagesRepo.search: the latest message of each thread's shown branch whose text holds `needle`. */
  search(threadIds: readonly string[], needle: string): Promise<ReadonlyMap<string, MessageMatch>>;
  /** Starts filling the index with these threads in the person's pauses (a search is likely soon). */
  prepare(threadIds: readonly string[]): void;
  /** What the index holds now. */
  size(): { readonly threads: number; readonly messages: number; readonly chars: number };
}

/** A thread's shown branch as the index keeps it: only messages with text, first to last. */
interface Entry {
  /** The thread's change count when it was read: a later change makes it stale. */
  readonly version: number;
  /** The count of changes to unnamed threads when it was read (an import can bring back a thread deleted earlier). */
  readonly epoch: number;
  /** When its read began (a count of reads): a search takes an entry read since it began, stale or not. */
  readonly readAt: number;
  readonly messages: readonly ShownMessage[];
  readonly chars: number;
}

/** Threads read in one transaction (a few hundred messages at most, usually). */
const BATCH_THREADS = 32;
/** Records per read: deserializing a page of long answers is one task of the page, so it is kept short. */
const PAGE = 100;
/** The most text kept (UTF-16 characters, about 1-2 bytes each): past it a thread's text is read for each search. */
export const MAX_INDEX_CHARS = 16_000_000;

type RawMessage = BranchNode & { readonly role?: unknown; readonly blocks?: unknown };

export function createMessageSearchIndex({
  db,
  bus,
  slices,
  maxChars = MAX_INDEX_CHARS,
}: {
  readonly db: AppDatabase;
  readonly bus: ChangeBus;
  readonly slices: BackgroundSlices;
  readonly maxChars?: number;
}): MessageSearchIndex {
  const entries = new Map<string, Entry>();
  /** Changes announced per thread since the page started (absent: none). */
  const versions = new Map<string, number>();
  let epoch = 0;
  let reads = 0;
  let chars = 0;
  let warming: Promise<void> | undefined;

  const isUsable = (threadId: string, since: number) => {
    const entry = entries.get(threadId);
    return (
      entry !== undefined &&
      ((entry.version === (versions.get(threadId) ?? 0) && entry.epoch === epoch) || entry.readAt > since)
    );
  };
  const keep = (threadId: string, entry: Entry) => {
    const before = entries.get(threadId);
    // A read that began earlier than the kept one finished later: the kept one is newer.
    if (before && before.readAt > entry.readAt) return;
    const next = chars - (before?.chars ?? 0) + entry.chars;
    if (next > maxChars) {
      // Not kept: nor is the stale text it would have replaced (the thread is read for each search instead).
      if (before) forget(threadId);
      return;
    }
    entries.set(threadId, entry);
    chars = next;
  };
  const forget = (threadId: string) => {
    chars -= entries.get(threadId)?.chars ?? 0;
    entries.delete(threadId);
  };

  /** Reads the threads' records in one transaction, a page at a time; each with the change count it was read at. */
  const readThreads = async (threadIds: readonly string[]) => {
    const tx = db.transaction(['threads', 'messages'], 'readonly');
    const index = tx.objectStore('messages').index('byThreadSeq');
    return Promise.all(
      threadIds.map(async (threadId) => {
        const version = versions.get(threadId) ?? 0;
        const readAt = ++reads;
        const readEpoch = epoch;
        const thread = tx.objectStore('threads').get(threadId);
        const records: RawMessage[] = [];
        for (let range = IDBKeyRange.bound([threadId, 0], [threadId, Infinity]); ;) {
          const page = (await index.getAll(range, PAGE)) as RawMessage[];
          records.push(...page);
          if (page.length < PAGE) break;
          range = IDBKeyRange.bound([threadId, page.at(-1)!.seq], [threadId, Infinity], true);
        }
        const stored = (await thread) as { activeLeafId?: unknown } | undefined;
        const leaf = typeof stored?.activeLeafId === 'string' ? stored.activeLeafId : undefined;
        return { threadId, version, epoch: readEpoch, readAt, leaf, records };
      }),
    );
  };

  /** Indexes the threads not usable for a search that began at `since`, a batch at a time, in slices. */
  const fill = async (threadIds: readonly string[], since: number, found?: Map<string, Entry>) => {
    let sliceStart = slices.now();
    let at = 0;
    /** Reads the next batch of threads still needed, after a pause in the typing unless hurried; undefined at the end. */
    const readNext = async () => {
      const batch: string[] = [];
      for (; at < threadIds.length && batch.length < BATCH_THREADS; at++)
        if (!isUsable(threadIds[at]!, since)) batch.push(threadIds[at]!);
      if (batch.length === 0) return undefined;
      await slices.idle();
      return readThreads(batch);
    };
    // One batch is read while the one before is taken in: reading is waiting on storage, not work of the page.
    for (let reading = readNext(); ;) {
      const read = await reading;
      if (!read) return;
      reading = readNext();
      reading.catch(() => undefined); // Awaited on the next turn of the loop, unless this one fails first.
      for (const { threadId, version, epoch: readEpoch, readAt, leaf, records } of read) {
        const messages: ShownMessage[] = [];
        let size = 0;
        for (const record of selectBranch(records, leaf).path) {
          if (slices.isOver(sliceStart)) {
            await slices.next();
            sliceStart = slices.now();
          }
          const text = shownText(record.blocks);
          if (!text) continue;
          messages.push({ id: String(record.id), role: record.role === 'user' ? 'user' : 'assistant', text });
          size += text.length;
        }
        const entry = { version, epoch: readEpoch, readAt, messages, chars: size };
        keep(threadId, entry);
        found?.set(threadId, entry);
      }
    }
  };

  const prepare = (threadIds: readonly string[]) => {
    if (warming) return;
    warming = fill([...threadIds], reads).finally(() => (warming = undefined));
    warming.catch(() => undefined);
  };
  bus.subscribe((change) => {
    if (change.store === 'messages' && change.threadId !== undefined)
      versions.set(change.threadId, (versions.get(change.threadId) ?? 0) + 1);
    // An import (or a removed server) names no thread: everything held is read again, in the background.
    if (change.store === 'threads' && change.threadId === undefined && entries.size > 0) {
      epoch++;
      prepare([...entries.keys()]);
    }
  });

  return {
    async search(threadIds, needle) {
      const find = textMatcher(needle);
      if (!find) return new Map();
      const since = reads;
      // Threads no longer listed (deleted, waiting for Undo, another profile's) are read again if they come back.
      const listed = new Set(threadIds);
      for (const threadId of [...entries.keys()]) if (!listed.has(threadId)) forget(threadId);
      // The person waits: slices go on while they type. Entries past the size limit are used once, not kept.
      const release = slices.hurry();
      const readNow = new Map<string, Entry>();
      try {
        // Filling ahead goes on hurried, and this search reads only what it left: no thread is read twice.
        await warming?.catch(() => undefined);
        await fill(threadIds, since, readNow);
      } finally {
        release();
      }
      const matches = new Map<string, MessageMatch>();
      for (const threadId of threadIds) {
        const entry = readNow.get(threadId) ?? entries.get(threadId);
        const match = entry && lastFound(entry.messages, find);
        if (match) matches.set(threadId, match);
      }
      return matches;
    },
    prepare,
    size: () => ({
      threads: entries.size,
      messages: [...entries.values()].reduce((sum, e) => sum + e.messages.length, 0),
      chars,
    }),
  };
}
