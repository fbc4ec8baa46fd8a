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

/** What the composer holds besides its text: the attachments waiting to be sent, and the files being read for them. */
export interface PendingState<T> {
  readonly items: readonly T[];
  readonly errors?: readonly string[];
  /** Files offered and still being read (see attachment-draft.ts). */
  readonly reading?: number;
  readonly shrinking?: readonly string[];
}

/** The attachments box beside the draft box (a store, or a thread's part of it: see threadBox). */
export interface PendingItems<T> {
  getState(): PendingState<T>;
  setState(change: Partial<PendingState<T>> | ((now: PendingState<T>) => Partial<PendingState<T>>)): void;
}

/** A thread's draft while another thread is open. */
interface Kept<T> {
  readonly text: string;
  readonly box: PendingState<T>;
}

const EMPTY_BOX: PendingState<never> = { items: [], errors: [], reading: 0, shrinking: [] };
const isEmptyBox = (box: PendingState<unknown>): boolean =>
  box.items.length === 0 && !box.reading && !box.errors?.length;

/** For each attachments box followed: the thread open now, whether a thread is gone, and the kept drafts. */
interface Following {
  readonly open: () => string | undefined;
  readonly isGone: (threadId: string) => boolean;
  readonly kept: Map<string, Kept<unknown>>;
}
const following = new WeakMap<object, Following>();

/** Who hears of items put in a kept draft (a left thread's), per attachments box. */
const keptListeners = new WeakMap<object, Set<(threadId: string, items: readonly unknown[]) => void>>();

/**
 * Calls `listener` with a left thread's attachments whenever something is put in its kept draft (a file that finished
 * reading after the thread was left, a message given back to it): what the box's own store does not announce. Returns
 * the function that stops listening.
 */
export function onKeptItems<T>(
  attachments: PendingItems<T>,
  listener: (threadId: string, items: readonly T[]) => void,
): () => void {
  const listeners = keptListeners.get(attachments) ?? new Set();
  keptListeners.set(attachments, listeners);
  const each = listener as (threadId: string, items: readonly unknown[]) => void;
  listeners.add(each);
  return () => void listeners.delete(each);
}

const keptChanged = (attachments: object, threadId: string, items: readonly unknown[]) =>
  keptListeners.get(attachments)?.forEach((listener) => listener(threadId, items));

/**
 * The attachments box of the thread open now, staying with that thread: once another is opened, what is put in it (a
 * file that finished reading, a resource its server answered with, a refusal) goes into that thread's kept draft
 * rather than into the box the person sees now. The box itself when no thread is followed or open.
 */
export function threadBox<T>(attachments: PendingItems<T>): PendingItems<T> {
  const follow = following.get(attachments);
  const owner = follow?.open();
  return follow && owner !== undefined ? ownBox(attachments, follow, owner) : attachments;
}

/**
 * The part of the box that is `owner`'s: the box while that thread is open, else its kept draft. A thread deleted while
 * open left its draft in the box (followThreadDrafts), so what comes for it goes there too; one hidden for Undo while
 * another was open keeps its kept draft.
 */
function ownBox<T>(attachments: PendingItems<T>, follow: Following, owner: string): PendingItems<T> {
  const isHere = () => follow.open() === owner || (!follow.kept.has(owner) && follow.isGone(owner));
  const kept = () => (follow.kept.get(owner) ?? { text: '', box: EMPTY_BOX }) as Kept<T>;
  return {
    getState: () => (isHere() ? attachments.getState() : kept().box),
    setState: (change) => {
      if (isHere()) return attachments.setState(change);
      const { text, box } = kept();
      const next = { ...box, ...(typeof change === 'function' ? change(box) : change) };
      if (!text && isEmptyBox(next)) follow.kept.delete(owner);
      else follow.kept.set(owner, { text, box: next });
      if (next.items !== box.items) keptChanged(attachments, owner, next.items);
    },
  };
}

/** Every attachment waiting in a draft: the open thread's and those kept with other threads. */
export function allPendingItems<T>(attachments: PendingItems<T>): T[] {
  const kept = [...(following.get(attachments)?.kept.values() ?? [])] as Kept<T>[];
  return [...attachments.getState().items, ...kept.flatMap((k) => k.box.items)];
}

/** The box, open or kept, of the draft that holds an attachment; undefined when none does (sent or removed). */
export function boxHolding<T>(attachments: PendingItems<T>, holds: (item: T) => boolean): PendingItems<T> | undefined {
  if (attachments.getState().items.some(holds)) return threadBox(attachments);
  const follow = following.get(attachments);
  for (const [threadId, kept] of follow?.kept ?? [])
    if ((kept.box.items as readonly T[]).some(holds)) return ownBox(attachments, follow!, threadId);
  return undefined;
}

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
  const follow = following.get(attachments);
  const kept = follow?.kept as Map<string, Kept<T>> | undefined;
  // A thread deleted meanwhile has no draft to go back to: the box shows it rather than a draft no one will open.
  const isGone = where.threadId !== undefined && follow?.isGone(where.threadId) === true;
  if (where.threadId === undefined || where.threadId === where.activeThreadId || !kept || isGone) {
    attachments.setState({ items: [...items, ...attachments.getState().items] });
    setDraft(draft, withText(draft.getState().text, text));
    return;
  }
  const own = kept.get(where.threadId);
  const box = own?.box ?? EMPTY_BOX;
  const keptItems = [...items, ...box.items];
  kept.set(where.threadId, { text: withText(own?.text ?? '', text), box: { ...box, items: keptItems } });
  keptChanged(attachments, where.threadId, keptItems);
}

/** A draft's text with a message's text given back: before what was typed since, never instead of it. */
export const withText = (typed: string, given: string): string =>
  !typed.trim() ? given : typed.includes(given) ? typed : `${given}\n\n${typed}`;

/** A thread's kept box with what the box holds now added after it (see followThreadDrafts). */
function mergedBox<T>(own: PendingState<T>, attachments: PendingItems<T> | undefined): PendingState<T> {
  const now = attachments?.getState() ?? EMPTY_BOX;
  return {
    items: [...own.items, ...now.items],
    errors: [...(own.errors ?? []), ...(now.errors ?? [])],
    reading: (own.reading ?? 0) + (now.reading ?? 0),
    shrinking: [...(own.shrinking ?? []), ...(now.shrinking ?? [])],
  };
}

/**
 * Each thread keeps its own draft, text and attachments: leaving a thread keeps what was put in it, and opening one
 * shows its own (empty when none), so Enter never sends to one thread what was meant for another. What is typed while
 * no thread is open (start-up, or after the open thread was deleted) goes to the thread that opens, and so does the
 * draft of a thread that was deleted (it is not in the list any more), after that thread's own draft, rather than being
 * lost. Returns the function that stops following.
 */
export function followThreadDrafts<T>(
  draft: DraftStore,
  chat: Pick<
    StoreApi<{
      readonly activeThreadId?: string | undefined;
      readonly threads: readonly { readonly id: string }[];
      /** A thread hidden for Undo: its draft is kept until the deletion is final. */
      readonly deleting?: { readonly thread: { readonly id: string } } | undefined;
    }>,
    'subscribe' | 'getState'
  >,
  attachments?: PendingItems<T>,
): () => void {
  const kept = new Map<string, Kept<T>>();
  let open = chat.getState().activeThreadId;
  let threadIds = new Set(chat.getState().threads.map((t) => t.id));
  const follow: Following = { open: () => open, isGone: (id) => !threadIds.has(id), kept };
  if (attachments) following.set(attachments, follow);
  const put = (text: string, box: PendingState<T>) => {
    setDraft(draft, text);
    attachments?.setState({ ...EMPTY_BOX, ...box });
  };
  const stop = chat.subscribe((now, before) => {
    if (now.threads !== before.threads || now.deleting !== before.deleting) {
      threadIds = new Set(now.threads.map((t) => t.id));
      // A thread deleted for good takes its kept draft along (an attached resource stops being followed).
      for (const id of kept.keys()) if (!threadIds.has(id) && id !== now.deleting?.thread.id) kept.delete(id);
    }
    const [left, opened] = [before.activeThreadId, now.activeThreadId];
    if (left === opened) return;
    open = opened;
    const isLeftGone = left !== undefined && !threadIds.has(left);
    if (left !== undefined && !isLeftGone) {
      const text = draft.getState().text;
      const box = attachments?.getState() ?? EMPTY_BOX;
      if (text || !isEmptyBox(box)) kept.set(left, { text, box });
      else kept.delete(left);
    }
    const own = opened === undefined ? undefined : kept.get(opened);
    if (opened !== undefined) kept.delete(opened); // In the box now, until it is left again.
    // What the box carries over (typed while no thread was open, or a deleted thread's draft) stays, after the opened
    // thread's own draft rather than in place of it.
    const isCarried = left === undefined || isLeftGone;
    if (own !== undefined && isCarried) put(withText(draft.getState().text, own.text), mergedBox(own.box, attachments));
    else if (own !== undefined) put(own.text, own.box);
    else if (!isCarried) put('', EMPTY_BOX);
  });
  return () => {
    stop();
    if (attachments && following.get(attachments) === follow) following.delete(attachments);
  };
}
