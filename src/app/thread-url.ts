// The open thread in the page's address (#thread=<id>): Back and Forward move between the threads opened, a reload
// or a bookmark opens that thread, and a link opened in a new tab opens it there. A hash, so a static host needs no
// rewrite rule; the thread id is all it holds (no title, nothing typed).
import type { ChatActions, ChatStore } from '../stores/chat-store';

const PREFIX = '#thread=';

/** The parts of the page's window the address sync uses. */
export interface UrlWindow {
  readonly location: { readonly hash: string; readonly pathname: string; readonly search: string };
  readonly history: Pick<History, 'pushState' | 'replaceState'>;
  addEventListener(type: 'popstate', listener: () => void): void;
  removeEventListener(type: 'popstate', listener: () => void): void;
}

/** The thread id an address names, if any. */
export function threadIdOfHash(hash: string): string | undefined {
  if (!hash.startsWith(PREFIX)) return undefined;
  const id = decodeURIComponent(hash.slice(PREFIX.length));
  return id === '' ? undefined : id;
}

/** The address part of a thread. */
export const threadHash = (threadId: string): string => `${PREFIX}${encodeURIComponent(threadId)}`;

/**
 * Keeps the address and the open thread together, once start-up has opened one: first the address wins (a reload,
 * a bookmark, a link in a new tab), then each thread opened is a history entry, and Back or Forward opens its thread.
 * An address naming a thread that is not there (deleted, or never this profile's) is replaced by the open one's.
 */
export function syncThreadUrl(chat: ChatStore, actions: Pick<ChatActions, 'openThread'>, win: UrlWindow): () => void {
  const exists = (id: string) => chat.getState().threads.some((t) => t.id === id);
  const show = (id: string | undefined, how: 'push' | 'replace') => {
    if (threadIdOfHash(win.location.hash) === id) return;
    const url = id === undefined ? `${win.location.pathname}${win.location.search}` : threadHash(id);
    if (how === 'push') win.history.pushState(null, '', url);
    else win.history.replaceState(null, '', url);
  };
  const followAddress = () => {
    const wanted = threadIdOfHash(win.location.hash);
    const active = chat.getState().activeThreadId;
    if (wanted !== undefined && wanted !== active && exists(wanted)) void actions.openThread(wanted);
    else if (wanted !== active) show(active, 'replace');
  };
  followAddress();
  const unsubscribe = chat.subscribe((state, previous) => {
    if (state.activeThreadId === previous.activeThreadId) return;
    // A thread closed (deleted) leaves no entry to come back to; one opened is an entry of its own.
    show(state.activeThreadId, state.activeThreadId === undefined ? 'replace' : 'push');
  });
  win.addEventListener('popstate', followAddress);
  return () => {
    unsubscribe();
    win.removeEventListener('popstate', followAddress);
  };
}
