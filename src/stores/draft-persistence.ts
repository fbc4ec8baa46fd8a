import type { StoreApi } from 'zustand/vanilla';
import { logFailure, silentLogger, type Logger } from '../domain/logger';
import type { DraftsRepo } from '../storage/drafts-repo';
import { setDraft, withText, type DraftStore } from './draft';
import { inOrder } from './in-order';

/** How long typing pauses before the text is stored (an emptied box is stored at once). */
export const SAVE_DRAFT_AFTER_MS = 300;

type Chat = Pick<
  StoreApi<{ readonly activeThreadId?: string | undefined; readonly threads: readonly { readonly id: string }[] }>,
  'getState' | 'subscribe'
>;

/**
 * The changes waiting to be stored, taken (`unsaved` is emptied), less those of threads no longer listed: a thread
 * deleted meanwhile took its draft along, or gave it to the next thread's box. Shared by the text's and the
 * attachments' persistence.
 */
export function takeUnsaved<T>(unsaved: Map<string, T>, chat: Pick<Chat, 'getState'>): [string, T][] {
  const threads = new Set(chat.getState().threads.map((t) => t.id));
  const batch = [...unsaved].filter(([threadId]) => threads.has(threadId));
  unsaved.clear();
  return batch;
}

/**
 * Keeps each thread's unsent text in storage, so a reload (or a closed tab) finds it in the box again: stored a moment
 * after typing pauses, forgotten at once when the box is emptied (a sent message never comes back after a reload),
 * and put back when its thread opens with an empty box (followThreadDrafts keeps drafts between threads meanwhile).
 * Returns `flush` (store what is waiting now) and `stop`.
 */
export function persistThreadDrafts(deps: {
  readonly draft: DraftStore;
  readonly chat: Chat;
  readonly drafts: DraftsRepo;
  readonly logger?: Logger;
}): { readonly flush: () => Promise<void>; readonly stop: () => void } {
  const logger = deps.logger ?? silentLogger;
  const unsaved = new Map<string, string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Threads whose text this page stored (or read back): an emptied box is forgotten in storage only for them. */
  const mayBeStored = new Set<string>();
  // Reads and writes in order: a thread's stored text is read before a write queued after it can replace it.
  const queued = inOrder();
  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    const batch = takeUnsaved(unsaved, deps.chat);
    for (const [threadId, text] of batch) {
      if (text === '') mayBeStored.delete(threadId);
      else mayBeStored.add(threadId);
    }
    return queued(() => Promise.all(batch.map(([threadId, text]) => deps.drafts.put(threadId, text)))).then(
      () => undefined,
      logFailure(logger, 'Saving unsent text failed'),
    );
  };
  /** The box's text read back from storage, set now: not written again. */
  let isRestoring = false;
  const record = (threadId: string, text: string) => {
    if (isRestoring) return void mayBeStored.add(threadId);
    // An emptied box forgets only text this page stored or read back: a thread opening with an empty box empties it
    // too (followThreadDrafts), and its stored text is read then, not erased; text typed and sent before it was ever
    // stored needs no write at all.
    if (text === '' && !mayBeStored.has(threadId)) return void unsaved.delete(threadId);
    unsaved.set(threadId, text);
    clearTimeout(timer);
    timer = text === '' ? undefined : setTimeout(() => void flush(), SAVE_DRAFT_AFTER_MS);
    if (text === '') void flush();
  };
  const stopText = deps.draft.subscribe((now, before) => {
    if (now.text === before.text) return;
    // The thread open now (read from the store: a thread being opened has already changed the box to its own text).
    const threadId = deps.chat.getState().activeThreadId;
    // Typed while no thread is open: it goes to the thread that opens, and is stored with it (see restore).
    if (threadId !== undefined) record(threadId, now.text);
  });
  /**
   * Puts the thread's stored text into its box: alone when the box is empty; before the text the box carried over
   * (typed while no thread was open, or a deleted thread's draft), which is then stored with it.
   */
  const restore = async (threadId: string, isCarried: boolean) => {
    const stored = await queued(() => deps.drafts.get(threadId)).catch(
      logFailure(logger, 'Reading unsent text failed', { threadId }),
    );
    if (deps.chat.getState().activeThreadId !== threadId) return;
    const now = deps.draft.getState().text;
    if (now === '' && stored) {
      isRestoring = true;
      setDraft(deps.draft, stored);
      isRestoring = false;
    } else if (now !== '' && isCarried) {
      const joined = withText(now, stored ?? '');
      setDraft(deps.draft, joined);
      record(threadId, joined);
    }
  };
  const stopChat = deps.chat.subscribe((now, before) => {
    const [left, opened] = [before.activeThreadId, now.activeThreadId];
    if (opened === left || opened === undefined) return;
    const isCarried = left === undefined || !now.threads.some((t) => t.id === left);
    void restore(opened, isCarried);
  });
  const open = deps.chat.getState().activeThreadId;
  if (open !== undefined) void restore(open, true);
  return {
    flush,
    stop: () => {
      stopText();
      stopChat();
      void flush();
    },
  };
}
