import type { StoreApi } from 'zustand/vanilla';
import type { DraftAttachment } from '../domain/attachment';
import { attachmentsProblem, checkAttachment } from '../domain/attachment-check';
import { logFailure, silentLogger, type Logger } from '../domain/logger';
import type { DraftAttachmentsRepo, StoredDraftAttachments } from '../storage/draft-attachments-repo';
import type { AttachmentDraft, PendingAttachment } from './attachment-draft';
import { onKeptItems, threadBox } from './draft';
import { SAVE_DRAFT_AFTER_MS, takeUnsaved } from './draft-persistence';
import { inOrder } from './in-order';

type Chat = Pick<
  StoreApi<{ readonly activeThreadId?: string | undefined; readonly threads: readonly { readonly id: string }[] }>,
  'getState' | 'subscribe'
>;

/** What storage holds for a thread as far as this page knows, or that what it holds is to be written over. */
type Known = readonly PendingAttachment[] | 'stale';

const isSame = (a: readonly PendingAttachment[], b: Known): boolean =>
  b !== 'stale' && a.length === b.length && a.every((item, i) => item === b[i]);

/** Said in the tray for a stored attachment that could not be read back. */
export const unreadableNotice = (name: string | undefined): string =>
  `${name ?? 'An attachment'} could not be read back from this browser's storage and was taken out of the message; attach it again if you need it.`;

/**
 * Keeps each thread's unsent attachments in storage beside its text (persistThreadDrafts), so a reload or a discarded
 * tab finds them in the tray again: stored a moment after they change, forgotten at once when the box is emptied (sent),
 * and put back, before what the box holds, when the thread first opens in this page (Send waits for that read). A
 * stored attachment that cannot be read back, or that no longer fits the API's limits, is dropped and the tray says so.
 * As with the text, the box of no thread is not stored: it goes to the thread that opens. Returns `flush`, `settled`
 * and `stop`.
 */
export function persistThreadAttachments(deps: {
  readonly attachments: AttachmentDraft;
  readonly chat: Chat;
  readonly repo: DraftAttachmentsRepo;
  readonly logger?: Logger;
}): { readonly flush: () => Promise<void>; readonly settled: () => Promise<void>; readonly stop: () => void } {
  const logger = deps.logger ?? silentLogger;
  const known = new Map<string, Known>();
  const unsaved = new Map<string, readonly PendingAttachment[]>();
  /** Threads whose stored attachments are being read (what the box gets meanwhile joins them), and those reads. */
  const reading = new Map<string, Promise<void>>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Reads and writes in order: a thread's stored attachments are read before a write queued after it replaces them.
  const queued = inOrder();
  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    const batch = takeUnsaved(unsaved, deps.chat);
    for (const [threadId, items] of batch) known.set(threadId, items);
    const write = ([threadId, items]: [string, readonly PendingAttachment[]]) =>
      deps.repo.put(threadId, items.map(toStored)).catch((error: unknown) => {
        // Written over at the next change; not read back again, which would bring back what was removed meanwhile.
        known.set(threadId, 'stale');
        logFailure(logger, 'Saving unsent attachments failed', { threadId })(error);
        if (error instanceof DOMException && error.name === 'QuotaExceededError' && isOpen(threadId))
          deps.attachments.setState((s) => ({ errors: [...(s.errors ?? []), STORAGE_FULL] }));
      });
    return queued(() => Promise.all(batch.map(write))).then(() => undefined);
  };
  const isOpen = (threadId: string) => deps.chat.getState().activeThreadId === threadId;
  const record = (threadId: string, items: readonly PendingAttachment[]) => {
    // Nothing stored and nothing to store (a thread opening with an empty box, or one attached and sent at once).
    if (isSame(items, known.get(threadId) ?? [])) return void unsaved.delete(threadId);
    unsaved.set(threadId, items);
    clearTimeout(timer);
    timer = items.length === 0 ? undefined : setTimeout(() => void flush(), SAVE_DRAFT_AFTER_MS);
    if (items.length === 0) void flush();
  };
  const stopItems = deps.attachments.subscribe((now, before) => {
    if (now.items === before.items) return;
    const threadId = deps.chat.getState().activeThreadId;
    if (threadId !== undefined) record(threadId, now.items);
  });
  const restore = (threadId: string) => {
    if (known.has(threadId) || reading.has(threadId)) return; // This page's draft of it is newer than storage.
    const read = readBack(threadId)
      .catch(logFailure(logger, 'Putting back unsent attachments failed', { threadId }))
      .finally(() => reading.delete(threadId));
    reading.set(threadId, read);
  };
  const readBack = async (threadId: string) => {
    // The thread's own part of the box: it stays that thread's if another is opened before the read ends.
    const box = threadBox(deps.attachments);
    const change = (by: number) => box.setState((s) => ({ reading: Math.max(0, (s.reading ?? 0) + by) }));
    change(1);
    try {
      const stored = await queued(() => deps.repo.get(threadId)).catch(
        logFailure(logger, 'Reading unsent attachments failed', { threadId }),
      );
      // Written meanwhile (attached while it was read): what is stored now is not what was read, so it is written over.
      const isWritten = known.has(threadId);
      if (!stored || (stored.items.length === 0 && stored.dropped.length === 0)) {
        if (!isWritten) known.set(threadId, []);
        // What the box held already (attached before any thread opened, or carried from a thread deleted) is stored.
        record(threadId, box.getState().items);
        return;
      }
      if (!deps.chat.getState().threads.some((t) => t.id === threadId)) return; // Deleted meanwhile, draft and all.
      const { items, problems } = await usable(stored, box.getState().items);
      for (const { error } of stored.dropped) logFailure(logger, 'A stored unsent attachment was unreadable')(error);
      // Recorded first, so what was read back is not written again; one dropped is written over.
      known.set(threadId, problems.length > 0 || isWritten ? 'stale' : items);
      // Checked again against what the box holds now: more may have been attached while the bytes were read.
      const now = box.getState().items;
      const back = items.filter((i) => !now.some((n) => n.ref.id === i.ref.id));
      for (let problem = capsProblem([...back, ...now]); problem && back.length > 0;) {
        problems.push(`${back.pop()!.ref.name} was taken out of the message: ${problem}`);
        problem = capsProblem([...back, ...now]);
      }
      const joined = [...back, ...now];
      if (joined.length > now.length || problems.length > 0)
        box.setState((s) => ({ items: joined, errors: [...(s.errors ?? []), ...problems] }));
      // Stored as the thread's box holds it now (also when that thread was left meanwhile: its kept draft).
      record(threadId, joined);
    } finally {
      change(-1);
    }
  };
  // Put in a left thread's kept draft (a file read, or a message given back, after the person opened another thread).
  const stopKept = onKeptItems(deps.attachments, (threadId, items) => record(threadId, items));
  const stopChat = deps.chat.subscribe((now, before) => {
    const opened = now.activeThreadId;
    if (opened !== before.activeThreadId && opened !== undefined) restore(opened);
  });
  const open = deps.chat.getState().activeThreadId;
  if (open !== undefined) restore(open);
  return {
    flush,
    /** Resolves once the reads back under way have put what they read in its thread's draft. */
    settled: async () => {
      while (reading.size > 0) await Promise.all(reading.values());
    },
    stop: () => {
      stopItems();
      stopKept();
      stopChat();
      void flush();
    },
  };
}

/** Said in the tray when the browser's storage is full: the attachments stay, but only in this page. */
export const STORAGE_FULL =
  "This browser's storage is full, so the attachments are kept only until this page is closed or reloaded.";

const capsProblem = (items: readonly PendingAttachment[]) =>
  attachmentsProblem(items.map((i) => ({ kind: i.ref.kind, size: i.ref.size, pages: i.pages })));

const toStored = ({ ref, blob, note }: PendingAttachment): DraftAttachment => ({
  ref,
  blob,
  ...(note ? { note } : {}),
});

/**
 * The stored attachments that can still go with the message after `present` (their bytes read back and checked against
 * the API's limits again, as when they were added), and a line for each one dropped.
 */
async function usable(
  stored: StoredDraftAttachments,
  present: readonly PendingAttachment[],
): Promise<{ items: PendingAttachment[]; problems: string[] }> {
  const problems = stored.dropped.map((d) => unreadableNotice(d.name));
  const items: PendingAttachment[] = [];
  for (const { ref, blob, note } of stored.items) {
    if (present.some((p) => p.ref.id === ref.id)) continue; // The box has it already (given back, or carried).
    const label = ref.source.type === 'resource' ? `${ref.source.uri} (${ref.source.serverName})` : ref.name;
    const bytes = await blob.arrayBuffer().then(
      (buffer) => new Uint8Array(buffer),
      () => undefined,
    );
    if (bytes === undefined || bytes.length !== ref.size) {
      problems.push(unreadableNotice(ref.name));
      continue;
    }
    const checked = checkAttachment(label, ref.kind, bytes);
    if (checked.problem) {
      problems.push(`${checked.problem} It was taken out of the message.`);
      continue;
    }
    const item: PendingAttachment = {
      ref,
      blob,
      ...(checked.pages !== undefined ? { pages: checked.pages } : {}),
      ...(note ? { note } : {}),
    };
    const all = [...items, item, ...present];
    const problem = attachmentsProblem(all.map((i) => ({ kind: i.ref.kind, size: i.ref.size, pages: i.pages })));
    if (problem) {
      problems.push(`${label} was taken out of the message: ${problem}`);
      continue;
    }
    items.push(item);
  }
  return { items, problems };
}
