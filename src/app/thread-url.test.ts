import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { ChatState } from '../stores/chat-store';
import { syncThreadUrl, threadHash, threadIdOfHash, type UrlWindow } from './thread-url';

/** A page's address and history, as a browser keeps them (an entry per push; Back pops one and fires popstate). */
function fakeWindow(hash = '') {
  const entries = [hash];
  let at = 0;
  const listeners = new Set<() => void>();
  const win: UrlWindow & { back(): void; entries: string[] } = {
    location: {
      get hash() {
        return entries[at]!;
      },
      pathname: '/',
      search: '',
    },
    history: {
      pushState: (_data, _unused, url) => {
        entries.splice(at + 1, entries.length, String(url));
        at++;
      },
      replaceState: (_data, _unused, url) => {
        entries[at] = String(url).startsWith('#') ? String(url) : '';
      },
    },
    addEventListener: (_type, listener) => listeners.add(listener),
    removeEventListener: (_type, listener) => listeners.delete(listener),
    back() {
      at--;
      for (const listener of listeners) listener();
    },
    entries,
  };
  return win;
}

/** A chat store with threads a, b and c, `active` open; openThread switches like the real one. */
function chatWith(active: string | undefined) {
  const chat = createStore<ChatState>(
    () => ({ threads: ['a', 'b', 'c'].map((id) => ({ id })), activeThreadId: active }) as unknown as ChatState,
  );
  const opened: string[] = [];
  const actions = {
    openThread: (id: string) => {
      opened.push(id);
      chat.setState({ activeThreadId: id });
      return Promise.resolve();
    },
  };
  return { chat, actions, opened };
}

describe('the open thread in the address', () => {
  it('reads and writes #thread=<id>, escaping what an id could hold', () => {
    expect(threadIdOfHash(threadHash('a b/c'))).toBe('a b/c');
    expect(threadIdOfHash('')).toBeUndefined();
    expect(threadIdOfHash('#thread=')).toBeUndefined();
    expect(threadIdOfHash('#other=a')).toBeUndefined();
  });

  it('at start, the address wins over the thread start-up reopened (a reload, a bookmark, a link in a new tab)', () => {
    const win = fakeWindow(threadHash('b'));
    const { chat, actions, opened } = chatWith('a');
    syncThreadUrl(chat, actions, win);
    expect(opened).toEqual(['b']);
    expect(chat.getState().activeThreadId).toBe('b');
    expect(win.entries).toEqual([threadHash('b')]); // no extra entry for it
  });

  it('an address naming a thread that is not there shows the open one instead', () => {
    const win = fakeWindow(threadHash('gone'));
    const { chat, actions, opened } = chatWith('a');
    syncThreadUrl(chat, actions, win);
    expect(opened).toEqual([]);
    expect(win.location.hash).toBe(threadHash('a'));
  });

  it('each thread opened is an entry, and Back opens the one before', () => {
    const win = fakeWindow();
    const { chat, actions, opened } = chatWith('a');
    syncThreadUrl(chat, actions, win);
    expect(win.location.hash).toBe(threadHash('a'));
    void actions.openThread('b');
    void actions.openThread('c');
    expect(win.entries).toEqual([threadHash('a'), threadHash('b'), threadHash('c')]);
    win.back();
    expect(chat.getState().activeThreadId).toBe('b');
    win.back();
    expect(chat.getState().activeThreadId).toBe('a');
    expect(opened).toEqual(['b', 'c', 'b', 'a']);
    expect(win.entries).toHaveLength(3); // going back added nothing
  });

  it('a deleted open thread leaves the address without a thread, and stops when disposed', () => {
    const win = fakeWindow();
    const { chat, actions } = chatWith('a');
    const stop = syncThreadUrl(chat, actions, win);
    chat.setState({ activeThreadId: undefined });
    expect(win.location.hash).toBe('');
    stop();
    void actions.openThread('b');
    expect(win.location.hash).toBe('');
  });
});
