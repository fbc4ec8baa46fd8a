import { createStore, type StoreApi } from 'zustand/vanilla';

/** The composer's text. It exists before storage opens, so what is typed then is the text of the thread that opens. */
export interface DraftState {
  readonly text: string;
}

export type DraftStore = StoreApi<DraftState>;

/** An empty draft. */
export function createDraft(): DraftStore {
  return createStore<DraftState>(() => ({ text: '' }));
}

/** The longest message the box takes; longer text (a paste, an inserted prompt) is cut there, and the person told. */
export const MAX_MESSAGE_CHARS = 100_000;

/**
 * Replaces the draft's text (typing, a picked mention, an inserted prompt), cut at MAX_MESSAGE_CHARS: the box's own
 * limit holds only for typing and pasting, not for text set from code.
 */
export function setDraft(draft: DraftStore, text: string): void {
  draft.setState({ text: cutAt(text, MAX_MESSAGE_CHARS) });
}

/** `text` cut to at most `max` UTF-16 units, never between the two halves of a character (an emoji). */
export function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** The text to send, cleared in the same step so it goes out once; undefined when there is nothing but blanks. */
export function takeDraft(draft: DraftStore): string | undefined {
  const { text } = draft.getState();
  if (!text.trim()) return undefined;
  draft.setState({ text: '' });
  return text;
}

/** What the composer holds besides its text: the attachments waiting to be sent (see attachment-draft.ts). */
interface PendingItems<T> {
  getState(): { readonly items: readonly T[] };
  setState(change: { readonly items: readonly T[] }): void;
}

/** A thread's draft while another thread is open. */
interface Kept<T> {
  readonly text: string;
  readonly items: readonly T[];
}

/** The drafts kept per thread by followThreadDrafts, for each draft box it follows. */
const keptDrafts = new WeakMap<DraftStore, Map<string, Kept<unknown>>>();

/**
 * Puts a message that could not be stored back into the draft of the thread it was for: into the box when that thread
 * is open (its text and attachments before what was put there meanwhile), else into that thread's
 * kept draft, so it is there when the person goes back and never lands in another thread's box.
 */
export function giveBackDraft<T>(
  draft: DraftStore,
  attachments: PendingItems<T>,
  where: { readonly threadId: string | undefined; readonly activeThreadId: string | undefined },
  text: string,
  items: readonly T[],
): void {
  const kept = keptDrafts.get(draft) as Map<string, Kept<T>> | undefined;
  if (where.threadId === undefined || where.threadId === where.activeThreadId || !kept) {
    attachments.setState({ items: [...items, ...attachments.getState().items] });
    setDraft(draft, withText(draft.getState().text, text));
    return;
  }
  const own = kept.get(where.threadId);
  kept.set(where.threadId, { text: withText(own?.text ?? '', text), items: [...items, ...(own?.items ?? [])] });
}

/** A draft's text with a message's text given back: before what was typed since, never instead of it. */
const withText = (typed: string, given: string): string =>
  !typed.trim() ? given : typed.includes(given) ? typed : `${given}\n\n${typed}`;

/**
 * Each thread keeps its own draft, text and attachments: leaving a thread keeps what was put in it, and opening one
 * shows its own (empty when none), so Enter never sends to one thread what was meant for another. What is typed while
 * no thread is open (during start-up) goes to the thread that opens, and so does the draft of a thread that was
 * deleted (it is not in the list any more), rather than being lost. Returns the function that stops following.
 */
export function followThreadDrafts<T>(
  draft: DraftStore,
  chat: Pick<
    StoreApi<{ readonly activeThreadId?: string | undefined; readonly threads: readonly { readonly id: string }[] }>,
    'subscribe'
  >,
  attachments?: PendingItems<T>,
): () => void {
  const kept = new Map<string, Kept<T>>();
  keptDrafts.set(draft, kept);
  const put = (text: string, items: readonly T[]) => {
    setDraft(draft, text);
    attachments?.setState({ items });
  };
  const stop = chat.subscribe((now, before) => {
    const [left, opened] = [before.activeThreadId, now.activeThreadId];
    if (left === opened) return;
    const isLeftGone = left !== undefined && !now.threads.some((t) => t.id === left);
    if (left !== undefined && !isLeftGone) {
      const text = draft.getState().text;
      const items = attachments?.getState().items ?? [];
      if (text || items.length > 0) kept.set(left, { text, items });
      else kept.delete(left);
    }
    const own = opened === undefined ? undefined : kept.get(opened);
    if (own !== undefined) put(own.text, own.items);
    else if (left !== undefined && !isLeftGone) put('', []);
  });
  return () => {
    stop();
    if (keptDrafts.get(draft) === kept) keptDrafts.delete(draft);
  };
}
