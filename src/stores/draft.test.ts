import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test/fakes/cleanup';
import { testAppServices } from '../../test/fakes/test-app';
import { createMemoryStorage } from '../../test/fakes/memory-storage';
import { createAppStore, type AppServices } from './app-store';
import { startApp } from './start-app';
import { createStore } from 'zustand/vanilla';
import { createDraft, cutAt, followThreadDrafts, MAX_MESSAGE_CHARS, setDraft, takeDraft } from './draft';

const cleanup = cleanupAfterEach();

/** Start-up services over in-memory storage, handed over only when `open` is called (storage "still opening" until then). */
function slowServices() {
  const storage = createMemoryStorage();
  const services = testAppServices(storage);
  let open = () => undefined as void;
  const connect = () => new Promise<AppServices>((resolve) => (open = () => resolve(services)));
  return { storage, connect, open: () => open() };
}

describe('the draft', () => {
  it('holds at most 100,000 characters, however the text came (an inserted prompt is not cut by the box)', () => {
    const draft = createDraft();
    setDraft(draft, 'x'.repeat(1_000_000));
    expect(draft.getState().text).toHaveLength(MAX_MESSAGE_CHARS);
    expect(MAX_MESSAGE_CHARS).toBe(100_000);
    setDraft(draft, 'short');
    expect(draft.getState().text).toBe('short');
    // An emoji (two UTF-16 units) across the limit goes whole, not half: half of one is no character.
    setDraft(draft, `${'x'.repeat(MAX_MESSAGE_CHARS - 1)}😀 and more`);
    expect(draft.getState().text).toBe('x'.repeat(MAX_MESSAGE_CHARS - 1));
    expect(cutAt('ab😀', 4)).toBe('ab😀');
  });

  it('gives its text to send once, and keeps blanks back', () => {
    const draft = createDraft();
    setDraft(draft, '   ');
    expect(takeDraft(draft)).toBeUndefined();
    expect(draft.getState().text).toBe('   ');
    setDraft(draft, 'hello\n');
    expect(takeDraft(draft)).toBe('hello\n');
    expect(takeDraft(draft)).toBeUndefined();
    expect(draft.getState().text).toBe('');
  });

  it('typed while storage opens, it is still the text once the app is ready', async () => {
    const { storage, connect, open } = slowServices();
    const store = createAppStore();
    const draft = store.getState().draft;
    const starting = startApp(store, connect);
    setDraft(draft, 'typed before storage opened');
    expect(store.getState().phase).toBe('starting');
    open();
    await starting;
    cleanup(
      () => store.getState().registry?.close(),
      () => storage.changes.close(),
    );
    expect(store.getState().phase).toBe('ready');
    expect(store.getState().draft).toBe(draft);
    expect(draft.getState().text).toBe('typed before storage opened');
    expect(takeDraft(draft)).toBe('typed before storage opened');
    expect(takeDraft(draft)).toBeUndefined();
  });

  it('typed while storage opens, it stays in the box when the last thread open is gone', async () => {
    const { storage, connect, open } = slowServices();
    const profile = await storage.profiles.ensureActive();
    await storage.profiles.update(profile.id, (p) => ({ ...p, lastThreadId: 'deleted-before-the-page-closed' }));
    const store = createAppStore();
    const draft = store.getState().draft;
    const starting = startApp(store, connect);
    setDraft(draft, 'typed before storage opened');
    open();
    await starting;
    cleanup(
      () => store.getState().registry?.close(),
      () => storage.changes.close(),
    );
    expect(store.getState().chat?.getState().activeThreadId).toBeUndefined();
    expect(draft.getState().text).toBe('typed before storage opened');
  });

  it('stays when start-up fails', async () => {
    const store = createAppStore();
    setDraft(store.getState().draft, 'not lost');
    await startApp(store, () => Promise.reject(new Error('IndexedDB is not available')));
    expect(store.getState()).toMatchObject({ phase: 'failed', fatal: 'IndexedDB is not available' });
    expect(store.getState().draft.getState().text).toBe('not lost');
  });

  it('is kept per thread: leaving one keeps its text, the next shows its own, and start-up text goes to the first', () => {
    const draft = createDraft();
    const threads = ['dogs', 'cats', 'new'].map((id) => ({ id }));
    const chat = createStore<{ activeThreadId?: string; threads: { id: string }[] }>(() => ({ threads }));
    const files = createStore<{ items: readonly string[] }>(() => ({ items: [] }));
    const stop = followThreadDrafts(draft, chat, files);
    const open = (id: string | undefined) => chat.setState({ activeThreadId: id });
    setDraft(draft, 'typed during start-up');
    open('dogs'); // Restored at start-up: the text stays.
    expect(draft.getState().text).toBe('typed during start-up');
    setDraft(draft, 'about dogs');
    files.setState({ items: ['dog.png'] });
    open('cats');
    expect([draft.getState().text, files.getState().items]).toEqual(['', []]);
    setDraft(draft, 'about cats');
    open('dogs');
    expect([draft.getState().text, files.getState().items]).toEqual(['about dogs', ['dog.png']]);
    open(undefined); // New thread: none open while it is made, then the new one, empty.
    expect([draft.getState().text, files.getState().items]).toEqual(['', []]);
    open('new');
    expect(draft.getState().text).toBe('');
    open('cats');
    expect(draft.getState().text).toBe('about cats');
    setDraft(draft, '');
    open('dogs');
    open('cats'); // Emptied there: nothing comes back.
    expect(draft.getState().text).toBe('');
    // A thread deleted (out of the list as it closes): its draft stays in the box for the next thread.
    setDraft(draft, 'half written in cats');
    chat.setState({ activeThreadId: undefined, threads: threads.filter((t) => t.id !== 'cats') });
    expect(draft.getState().text).toBe('half written in cats');
    open('new');
    expect(draft.getState().text).toBe('half written in cats');
    stop();
    open('dogs');
    expect(draft.getState().text).toBe('half written in cats');
  });

  it('typed with no thread open, or left by a thread deleted while open, joins the next thread’s own draft after it', () => {
    const draft = createDraft();
    const threads = ['a', 'b'].map((id) => ({ id }));
    const chat = createStore<{ activeThreadId?: string; threads: { id: string }[] }>(() => ({
      threads,
      activeThreadId: 'a',
    }));
    const files = createStore<{ items: readonly string[] }>(() => ({ items: [] }));
    const stop = followThreadDrafts(draft, chat, files);
    setDraft(draft, 'about A');
    files.setState({ items: ['a.png'] });
    chat.setState({ activeThreadId: 'b' });
    setDraft(draft, 'about B, half written');
    chat.setState({ activeThreadId: 'a' });
    // A is deleted while open: its draft stays in the box; B opens with its own first, A's after it.
    chat.setState({ activeThreadId: undefined, threads: [{ id: 'b' }] });
    setDraft(draft, 'about A, and more');
    chat.setState({ activeThreadId: 'b' });
    expect(draft.getState().text).toBe('about B, half written\n\nabout A, and more');
    expect(files.getState().items).toEqual(['a.png']);
    stop();
  });
});
