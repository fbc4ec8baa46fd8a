import type { StoreApi } from 'zustand/vanilla';
import { logFailure, silentLogger, type Logger } from '../domain/logger';
import type { DraftsRepo } from '../storage/drafts-repo';
import { setDraft, type DraftStore } from './draft';

/** How long typing pauses before the text is stored (an emptied box is stored at once). */
export const SAVE_DRAFT_AFTER_MS = 300;

type Chat = Pick<
  StoreApi<{ readonly activeThreadId?: string | undefined; readonly threads: readonly { readonly id: string }[] }>,
  'getState' | 'subscribe'
>;

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
  // Reads and writes in order: a thread's stored text is read before a write queued after it can replace it.
  let queue: Promise<unknown> = Promise.resolve();
  const queued = <T>(job: () => Promise<T>): Promise<T> => {
    const done = queue.then(job);
    queue = done.catch(() => undefined);
    return done;
  };
  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    // Not for a thread deleted meanwhile (its draft went with it, or into the next thread's box).
    const threads = new Set(deps.chat.getState().threads.map((t) => t.id));
    const batch = [...unsaved].filter(([threadId]) => threads.has(threadId));
    unsaved.clear();
    return queued(() => Promise.all(batch.map(([threadId, text]) => deps.drafts.put(threadId, text)))).then(
      () => undefined,
      logFailure(logger, 'Saving unsent text failed'),
    );
  };
  // Threads whose box held text in this page: only theirs is forgotten when the box empties. A thread opening with an
  // empty box empties it too (followThreadDrafts), and its stored text must be read then, not erased.
  const hadText = new Set<string>();
  const stopText = deps.draft.subscribe((now, before) => {
    if (now.text === before.text) return;
    // The thread open now (read from the store: a thread being opened has already changed the box to its own text).
    const threadId = deps.chat.getState().activeThreadId;
    if (threadId === undefined) return; // Typed during start-up: it goes to the thread that opens, and is stored then.
    if (now.text === '' && !hadText.has(threadId)) return;
    if (now.text !== '') hadText.add(threadId);
    unsaved.set(threadId, now.text);
    clearTimeout(timer);
    timer = now.text === '' ? undefined : setTimeout(() => void flush(), SAVE_DRAFT_AFTER_MS);
    if (now.text === '') void flush();
  });
  const restore = async (threadId: string) => {
    const text = await queued(() => deps.drafts.get(threadId)).catch(
      logFailure(logger, 'Reading unsent text failed', { threadId }),
    );
    const isStill = deps.chat.getState().activeThreadId === threadId && deps.draft.getState().text === '';
    if (text && isStill) setDraft(deps.draft, text);
  };
  const stopChat = deps.chat.subscribe((now, before) => {
    const opened = now.activeThreadId;
    if (opened === before.activeThreadId || opened === undefined) return;
    if (deps.draft.getState().text === '') void restore(opened);
  });
  const open = deps.chat.getState().activeThreadId;
  if (open !== undefined && deps.draft.getState().text === '') void restore(open);
  return {
    flush,
    stop: () => {
      stopText();
      stopChat();
      void flush();
    },
  };
}
