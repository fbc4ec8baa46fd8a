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

/**
 * Each thread keeps its own draft: leaving a thread keeps what was typed in it, and opening one shows its own (empty
 * when none), so Enter never sends text written for another thread. What is typed while no thread is open (during
 * start-up) is the text of the thread that opens. Returns the function that stops following.
 */
export function followThreadDrafts(
  draft: DraftStore,
  chat: Pick<StoreApi<{ readonly activeThreadId?: string | undefined }>, 'subscribe'>,
): () => void {
  const kept = new Map<string, string>();
  return chat.subscribe((now, before) => {
    const [left, opened] = [before.activeThreadId, now.activeThreadId];
    if (left === opened) return;
    if (left !== undefined) {
      const { text } = draft.getState();
      if (text) kept.set(left, text);
      else kept.delete(left);
    }
    const own = opened === undefined ? undefined : kept.get(opened);
    if (own !== undefined) setDraft(draft, own);
    else if (left !== undefined) setDraft(draft, '');
  });
}
