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
