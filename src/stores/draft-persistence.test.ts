// Unsent text survives a reload: stored per thread when typing pauses, forgotten when the box is emptied (sent), put
// back when its thread opens, and deleted with its thread. Real repositories over fake-indexeddb; a "reload" is a
// second page (draft box, chat, persistence) over the same database.
import { afterEach, describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import { createDraft, followThreadDrafts, setDraft } from './draft';
import { persistThreadDrafts } from './draft-persistence';

let opened: TestStorage | undefined;
afterEach(() => opened?.close());

interface ChatState {
  activeThreadId?: string;
  threads: { id: string }[];
}

/** A page: its draft box following the threads, and the persistence; `open` opens a thread. */
function page(storage: TestStorage['storage'], threads: { id: string }[], activeThreadId?: string) {
  const draft = createDraft();
  const chat = createStore<ChatState>(() => ({ threads, ...(activeThreadId ? { activeThreadId } : {}) }));
  const stopFollowing = followThreadDrafts(draft, chat);
  const kept = persistThreadDrafts({ draft, chat, drafts: storage.drafts });
  return {
    draft,
    kept,
    open: (id: string) => chat.setState({ activeThreadId: id }),
    text: () => draft.getState().text,
    close: () => (stopFollowing(), kept.stop()),
  };
}

/** A page with `threadId` open, whose persistence counts the writes it makes (no draft box following threads). */
function countingPage(storage: TestStorage['storage'], threadId: string) {
  let writes = 0;
  const counted = { ...storage.drafts, put: (id: string, text: string) => (writes++, storage.drafts.put(id, text)) };
  const draft = createDraft();
  const chat = createStore<ChatState>(() => ({ threads: [{ id: threadId }], activeThreadId: threadId }));
  return { draft, kept: persistThreadDrafts({ draft, chat, drafts: counted }), writes: () => writes };
}

describe('unsent text across a reload', () => {
  it('is stored per thread and put back in the box when its thread opens again', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    const b = await storage.threads.create('p1', { title: 'B' });
    const threads = [{ id: a.id }, { id: b.id }];
    const first = page(storage, threads, a.id);
    setDraft(first.draft, 'half a thought about A');
    first.open(b.id);
    setDraft(first.draft, 'and one about B');
    await first.kept.flush();
    first.close();

    // Reload: the page opens at B, then A.
    const second = page(storage, threads, b.id);
    await expect.poll(() => second.text()).toBe('and one about B');
    second.open(a.id);
    await expect.poll(() => second.text()).toBe('half a thought about A');
    second.close();
  });

  it('is forgotten at once when the box is emptied (a sent message does not come back after a reload)', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    const first = page(storage, [{ id: a.id }], a.id);
    setDraft(first.draft, 'about to send');
    await first.kept.flush();
    expect(await storage.drafts.get(a.id)).toBe('about to send');
    setDraft(first.draft, ''); // Sent: the composer takes the text out of the box.
    await expect.poll(() => storage.drafts.get(a.id)).toBeUndefined();
    first.close();
  });

  it('of a thread opened with an empty box is read, not erased, and text typed before it comes is kept', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    const b = await storage.threads.create('p1', { title: 'B' });
    await storage.drafts.put(b.id, 'stored for B');
    const threads = [{ id: a.id }, { id: b.id }];
    const first = page(storage, threads, a.id);
    setDraft(first.draft, 'typed in A');
    first.open(b.id); // The box empties for B (no draft kept in this page): B's stored text is read.
    await expect.poll(() => first.text()).toBe('stored for B');
    await first.kept.flush();
    expect(await storage.drafts.get(b.id)).toBe('stored for B');
    expect(await storage.drafts.get(a.id)).toBe('typed in A');
    first.close();
  });

  it('typed with no thread open, it joins the stored text of the thread that opens (after it), and is stored so', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    await storage.drafts.put(a.id, 'yesterday’s half sentence');
    const first = page(storage, [{ id: a.id }]);
    setDraft(first.draft, 'a new idea'); // No thread open yet (start-up, or the open one was deleted).
    first.open(a.id);
    await expect.poll(() => first.text()).toBe('yesterday’s half sentence\n\na new idea');
    await first.kept.flush();
    expect(await storage.drafts.get(a.id)).toBe('yesterday’s half sentence\n\na new idea');
    first.close();
  });

  it('read back into the box is not written again (another tab may have changed it meanwhile)', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    await storage.drafts.put(a.id, 'stored');
    const { draft, kept, writes } = countingPage(storage, a.id);
    await expect.poll(() => draft.getState().text).toBe('stored');
    await kept.flush();
    expect(writes()).toBe(0);
    setDraft(draft, ''); // Emptied: forgotten, as it was shown in this page.
    await kept.flush();
    expect(writes()).toBe(1);
    expect(await storage.drafts.get(a.id)).toBeUndefined();
    kept.stop();
  });

  it('typed and sent before typing paused, it is never written (nothing to store, nothing to forget)', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    const { draft, kept, writes } = countingPage(storage, a.id);
    await kept.flush(); // The start-up read is done.
    setDraft(draft, 'quick question');
    setDraft(draft, ''); // Sent at once.
    await kept.flush();
    expect(writes()).toBe(0);
    kept.stop();
  });

  it('goes with its thread when the thread is deleted', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    await storage.drafts.put(a.id, 'never sent');
    await storage.threads.delete(a.id);
    expect(await opened.db.get('meta', `draft:${a.id}`)).toBeUndefined();
  });
});
