// Unsent attachments survive a reload as the text does: stored per thread when they change, forgotten when the message
// is sent, put back in the tray when their thread opens, deleted with their thread; one that cannot be read back is
// dropped with a notice and the others stay. Real repositories over fake-indexeddb; a "reload" is a second page (boxes,
// chat, persistence) over the same database.
import { afterEach, describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { samplePdf, samplePng } from '../../test/fixtures/sample-files';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import { draftAttachmentsKey } from '../storage/draft-attachments-repo';
import { createAttachmentDraft, offerAttachments, removeAttachment, type OfferedAttachment } from './attachment-draft';
import type { ChatActions, ChatStore } from './chat-store';
import { createDraft, followThreadDrafts, giveBackDraft } from './draft';
import { persistThreadAttachments, STORAGE_FULL, unreadableNotice } from './draft-attachments-persistence';
import { sendWithAttachments } from './send-with-attachments';

let opened: TestStorage | undefined;
afterEach(() => opened?.close());

interface ChatState {
  activeThreadId?: string;
  threads: { id: string }[];
}

const file = (name: string, mimeType: string, bytes: Uint8Array): OfferedAttachment => ({
  name,
  mimeType,
  bytes,
  source: { type: 'file' },
});
const png = new Uint8Array(samplePng(40, 20));
const notes = new TextEncoder().encode('Buy milk. Call Ana.');

/** A page: its boxes following the threads as in the app, and the persistence; `open` opens a thread. */
function page(storage: TestStorage['storage'], threads: { id: string }[], activeThreadId?: string) {
  const draft = createDraft();
  const attachments = createAttachmentDraft();
  const chat = createStore<ChatState>(() => ({ threads, ...(activeThreadId ? { activeThreadId } : {}) }));
  const stopFollowing = followThreadDrafts(draft, chat, attachments.store);
  const kept = persistThreadAttachments({ attachments: attachments.store, chat, repo: storage.draftAttachments });
  const tray = () => attachments.store.getState();
  return {
    draft,
    attachments,
    chat,
    kept,
    open: (id: string) => chat.setState({ activeThreadId: id }),
    names: () => tray().items.map((i) => i.ref.name),
    errors: () => tray().errors,
    /** The stored attachments are read back (Send is held while that lasts). */
    settled: async () => (await kept.settled(), expect(tray().reading ?? 0).toBe(0)),
    close: () => (stopFollowing(), kept.stop()),
  };
}

const storedNames = async (storage: TestStorage['storage'], threadId: string) =>
  (await storage.draftAttachments.get(threadId)).items.map((i) => i.ref.name);

describe('unsent attachments across a reload', () => {
  it('are stored per thread and put back in the tray, bytes and all, when their thread opens again', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    const b = await storage.threads.create('p1', { title: 'B' });
    const threads = [{ id: a.id }, { id: b.id }];
    const first = page(storage, threads, a.id);
    await first.settled();
    offerAttachments(first.attachments, [file('chart.png', 'image/png', png), file('notes.txt', 'text/plain', notes)]);
    first.open(b.id);
    await first.settled();
    offerAttachments(first.attachments, [file('report.pdf', 'application/pdf', new Uint8Array(samplePdf(2)))]);
    await first.kept.flush();
    first.close();

    // Reload: the page opens at B, then A.
    const second = page(storage, threads, b.id);
    await expect.poll(() => second.names()).toEqual(['report.pdf']);
    expect(second.attachments.store.getState().items[0]!.pages).toBe(2);
    second.open(a.id);
    await expect.poll(() => second.names()).toEqual(['chart.png', 'notes.txt']);
    const [chart, text] = second.attachments.store.getState().items;
    expect(new Uint8Array(await chart!.blob.arrayBuffer())).toEqual(png);
    expect(chart!.ref).toMatchObject({ kind: 'image', mimeType: 'image/png', size: png.length });
    expect(await text!.blob.text()).toBe('Buy milk. Call Ana.');
    expect(second.errors()).toEqual([]);
    second.close();
  });

  it('attached before any thread opens, they are stored for the thread that opens with nothing stored yet', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    const first = page(storage, [{ id: a.id }]);
    offerAttachments(first.attachments, [file('notes.txt', 'text/plain', notes)]);
    first.open(a.id);
    await first.settled();
    expect(first.names()).toEqual(['notes.txt']);
    await first.kept.flush();
    first.close();

    const second = page(storage, [{ id: a.id }], a.id);
    await expect.poll(() => second.names()).toEqual(['notes.txt']);
    second.close();
  });

  it('a write refused for a full disk says so in the tray, and a removed one does not come back at the next open', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    const b = await storage.threads.create('p1', { title: 'B' });
    const first = page(storage, [{ id: a.id }, { id: b.id }], a.id);
    await first.settled();
    offerAttachments(first.attachments, [file('old.txt', 'text/plain', notes)]);
    await first.kept.flush();
    expect(await storedNames(storage, a.id)).toEqual(['old.txt']);

    const put = storage.draftAttachments.put.bind(storage.draftAttachments);
    storage.draftAttachments.put = () => Promise.reject(new DOMException('quota', 'QuotaExceededError'));
    removeAttachment(first.attachments.store, first.attachments.store.getState().items[0]!.ref.id);
    offerAttachments(first.attachments, [file('new.txt', 'text/plain', notes)]);
    await first.kept.flush();
    expect(first.errors()).toContain(STORAGE_FULL);
    storage.draftAttachments.put = put;

    // Leaving and coming back does not read the old record back into the tray.
    first.open(b.id);
    await first.settled();
    first.open(a.id);
    await first.settled();
    expect(first.names()).toEqual(['new.txt']);
    first.close();
  });

  it("put in a left thread's draft (a message given back to it), they are stored for it without opening it again", async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    const b = await storage.threads.create('p1', { title: 'B' });
    const threads = [{ id: a.id }, { id: b.id }];
    const first = page(storage, threads, a.id);
    await first.settled();
    offerAttachments(first.attachments, [file('notes.txt', 'text/plain', notes)]);
    const items = first.attachments.store.getState().items;
    removeAttachment(first.attachments.store, items[0]!.ref.id);
    first.open(b.id);
    await first.settled();
    giveBackDraft(first.draft, first.attachments.store, { threadId: a.id, activeThreadId: b.id }, 'Look', items);
    await first.kept.flush();
    first.close();

    const second = page(storage, threads, a.id);
    await expect.poll(() => second.names()).toEqual(['notes.txt']);
    second.close();
  });

  it('are forgotten at once when the message is sent, and a removed one is forgotten too', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    const first = page(storage, [{ id: a.id }], a.id);
    await first.settled();
    offerAttachments(first.attachments, [file('chart.png', 'image/png', png), file('notes.txt', 'text/plain', notes)]);
    await first.kept.flush();
    expect(await storedNames(storage, a.id)).toEqual(['chart.png', 'notes.txt']);
    removeAttachment(first.attachments.store, first.attachments.store.getState().items[1]!.ref.id);
    await first.kept.flush();
    expect(await storedNames(storage, a.id)).toEqual(['chart.png']);

    let sent: readonly unknown[] = [];
    const actions = {
      send: (_text: string, items: readonly unknown[]) => ((sent = items), Promise.resolve(true)),
    } as unknown as ChatActions;
    await sendWithAttachments(
      actions,
      first.chat as unknown as ChatStore,
      first.draft,
      first.attachments.store,
      'Look',
    );
    expect(sent).toHaveLength(1);
    // Forgotten without waiting for a pause: a reload right after the send shows an empty tray.
    await expect.poll(() => opened!.db.get('meta', draftAttachmentsKey(a.id))).toBeUndefined();
    first.close();
    const second = page(storage, [{ id: a.id }], a.id);
    await second.settled();
    expect(second.names()).toEqual([]);
    second.close();
  });

  it('go back into storage with the message when the disk refused it (it is back in the tray)', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    const first = page(storage, [{ id: a.id }], a.id);
    await first.settled();
    offerAttachments(first.attachments, [file('chart.png', 'image/png', png)]);
    await first.kept.flush();
    const actions = { send: () => Promise.resolve(false) } as unknown as ChatActions;
    await sendWithAttachments(actions, first.chat as unknown as ChatStore, first.draft, first.attachments.store, 'x');
    expect(first.names()).toEqual(['chart.png']);
    await first.kept.flush();
    expect(await storedNames(storage, a.id)).toEqual(['chart.png']);
    first.close();
  });

  it('read back after their thread was left, they wait in its draft (not the open thread’s tray), and Send is held meanwhile', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    const b = await storage.threads.create('p1', { title: 'B' });
    await storage.draftAttachments.put(a.id, [
      {
        ref: { id: 'att-1', name: 'a.txt', mimeType: 'text/plain', kind: 'text', size: 2, source: { type: 'file' } },
        blob: new Blob(['hi']),
      },
    ]);
    // A's read waits until the test lets it go.
    let letGo = () => {};
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    const repo = {
      ...storage.draftAttachments,
      get: async (threadId: string) => (
        threadId === a.id ? await gate : undefined,
        storage.draftAttachments.get(threadId)
      ),
    };
    const draft = createDraft();
    const attachments = createAttachmentDraft();
    const chat = createStore<ChatState>(() => ({ threads: [{ id: a.id }, { id: b.id }], activeThreadId: a.id }));
    const stopFollowing = followThreadDrafts(draft, chat, attachments.store);
    const kept = persistThreadAttachments({ attachments: attachments.store, chat, repo });
    expect(attachments.store.getState().reading).toBe(1); // Send waits for what is being read back.
    chat.setState({ activeThreadId: b.id });
    letGo();
    await kept.settled();
    await kept.flush();
    expect(await storedNames(storage, a.id)).toEqual(['a.txt']);
    expect(attachments.store.getState().items).toEqual([]);
    chat.setState({ activeThreadId: a.id });
    expect(attachments.store.getState().items.map((i) => i.ref.name)).toEqual(['a.txt']);
    expect(attachments.store.getState().reading ?? 0).toBe(0);
    stopFollowing();
    kept.stop();
  });

  it('go with their thread when it is deleted for good, and with its profile', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    await storage.draftAttachments.put(a.id, [
      {
        ref: {
          id: 'att-1',
          name: 'chart.png',
          mimeType: 'image/png',
          kind: 'image',
          size: 3,
          source: { type: 'file' },
        },
        blob: new Blob(['png']),
      },
    ]);
    expect(await storedNames(storage, a.id)).toEqual(['chart.png']);
    await storage.threads.delete(a.id);
    expect(await opened.db.get('meta', draftAttachmentsKey(a.id))).toBeUndefined();

    await storage.profiles.create({ name: 'Main' }); // The last profile is never deleted.
    const other = await storage.profiles.create({ name: 'Other' });
    const b = await storage.threads.create(other.id, { title: 'B' });
    await storage.draftAttachments.put(b.id, [
      {
        ref: { id: 'att-2', name: 'n.txt', mimeType: 'text/plain', kind: 'text', size: 2, source: { type: 'file' } },
        blob: new Blob(['hi']),
      },
    ]);
    await storage.profiles.delete(other.id);
    expect(await opened.db.get('meta', draftAttachmentsKey(b.id))).toBeUndefined();
  });

  it('one that cannot be read back is dropped with a notice naming it; the others stay, and storage forgets it', async () => {
    opened = await openTestStorage();
    const { storage, db } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    const first = page(storage, [{ id: a.id }], a.id);
    await first.settled();
    offerAttachments(first.attachments, [
      file('chart.png', 'image/png', png),
      file('report.pdf', 'application/pdf', new Uint8Array(samplePdf(1))),
      file('notes.txt', 'text/plain', notes),
    ]);
    await first.kept.flush();
    first.close();
    // The PDF's record is damaged (its bytes gone, its kind changed by an older version); a fourth is no record at all.
    const record = (await db.get('meta', draftAttachmentsKey(a.id)))!;
    const items = (record.value as { items: Record<string, unknown>[] }).items;
    items[1] = { ...items[1], blob: 'not bytes', ref: { ...(items[1]!.ref as object), kind: 'spreadsheet' } };
    await db.put('meta', { key: record.key, value: { items: [...items, 42] } });

    const second = page(storage, [{ id: a.id }], a.id);
    await second.settled();
    expect(second.names()).toEqual(['chart.png', 'notes.txt']);
    expect(second.errors()).toEqual([unreadableNotice('report.pdf'), unreadableNotice(undefined)]);
    expect(second.errors()[0]).toBe(
      "report.pdf could not be read back from this browser's storage and was taken out of the message; attach it again if you need it.",
    );
    await second.kept.flush();
    expect(await storedNames(storage, a.id)).toEqual(['chart.png', 'notes.txt']);
    expect((await storage.draftAttachments.get(a.id)).dropped).toEqual([]);
    second.close();
  });

  it('a whole record that is not a list is dropped with a notice, never a crash', async () => {
    opened = await openTestStorage();
    const { storage, db } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    await db.put('meta', { key: draftAttachmentsKey(a.id), value: 'garbage' });
    const second = page(storage, [{ id: a.id }], a.id);
    await second.settled();
    expect(second.names()).toEqual([]);
    expect(second.errors()).toEqual([unreadableNotice(undefined)]);
    await expect.poll(() => db.get('meta', draftAttachmentsKey(a.id))).toBeUndefined();
    second.close();
  });

  it('stored bytes that no longer fit the limits are taken out with the reason, within the message’s caps', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const a = await storage.threads.create('p1', { title: 'A' });
    const latin1 = new Blob([new Uint8Array([0xff, 0xfe, 0x41])]);
    await storage.draftAttachments.put(a.id, [
      {
        ref: { id: 'att-1', name: 'old.txt', mimeType: 'text/plain', kind: 'text', size: 3, source: { type: 'file' } },
        blob: latin1,
      },
      {
        ref: { id: 'att-2', name: 'ok.txt', mimeType: 'text/plain', kind: 'text', size: 2, source: { type: 'file' } },
        blob: new Blob(['ok']),
      },
    ]);
    // Twenty files attached while no thread was open are carried into it: the stored ones would make 22.
    const second = page(storage, [{ id: a.id }]);
    offerAttachments(
      second.attachments,
      Array.from({ length: 20 }, (_, i) => file(`f${i}.txt`, 'text/plain', new TextEncoder().encode('x'))),
    );
    second.open(a.id);
    await second.settled();
    expect(second.names()).toHaveLength(20);
    expect(second.errors()).toEqual([
      'old.txt is not UTF-8 text. It was taken out of the message.',
      'ok.txt was taken out of the message: A message can carry at most 20 attachments.',
    ]);
    second.close();
  });
});
