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

/** Replaces the draft's text (typing, a picked mention). */
export function setDraft(draft: DraftStore, text: string): void {
  draft.setState({ text });
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
  const kept = new Map<string, { readonly text: string; readonly items: readonly T[] }>();
  const put = (text: string, items: readonly T[]) => {
    setDraft(draft, text);
    attachments?.setState({ items });
  };
  return chat.subscribe((now, before) => {
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
}
