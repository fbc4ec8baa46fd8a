// Deleting a thread with Undo (thread-deletion.ts) through the chat store, over real storage (fake-indexeddb).
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../test/fakes/test-app';
import { createChat, type ChatActions, type ChatStore } from './chat-store';
import { ALREADY_REMOVED } from './thread-deletion';

let app: TestApp;
let chat: { store: ChatStore; actions: ChatActions; dispose: () => void };

beforeAll(async () => {
  app = await startTestApp({ apiKey: 'sk-ant-thread-deletion' });
  chat = createChat(app.deps);
});

afterAll(async () => {
  chat?.dispose();
  await app?.close();
});

beforeEach(async () => {
  await chat.actions.newThread();
});

describe('deleting a thread', () => {
  it('is hidden at once in this page and in a page opened meanwhile; Undo brings it back; its time up, it is gone', async () => {
    const threadId = chat.store.getState().activeThreadId!;
    await app.opened.storage.messages.append(threadId, {
      role: 'user',
      blocks: [{ type: 'text', text: 'Plan a trip to Lima' }],
      status: 'complete',
    });
    await chat.actions.renameThread(threadId, 'Lima');
    const listed = (page: { store: ChatStore }) => page.store.getState().threads.map((t) => t.title);
    await chat.actions.deleteThread(threadId);
    expect(listed(chat)).not.toContain('Lima');
    // A reload within Undo's time (another page over the same storage) does not bring the thread back.
    const reloaded = createChat(app.deps);
    try {
      await reloaded.actions.refreshThreads();
      expect(listed(reloaded)).not.toContain('Lima');
      await chat.actions.undoDelete();
      expect(listed(chat)).toContain('Lima');
      await reloaded.actions.refreshThreads();
      expect(listed(reloaded)).toContain('Lima');
      await chat.actions.deleteThread(threadId);
      await chat.actions.confirmDelete();
      expect(await app.opened.storage.threads.get(threadId)).toBeUndefined();
      expect((await app.opened.storage.messages.list(threadId)).items).toEqual([]);
    } finally {
      reloaded.dispose();
    }
  });

  it('a deletion storage refuses leaves the thread where it was, saying why; Undo of one removed meanwhile says so', async () => {
    const threadId = await namedThread('Kept');
    const { threads } = app.opened.storage;
    const failing = vi.spyOn(threads, 'markDeleted').mockRejectedValueOnce(new Error('Disk failure'));
    await chat.actions.deleteThread(threadId);
    failing.mockRestore();
    expect(chat.store.getState().notice).toContain('Disk failure');
    expect(chat.store.getState().activeThreadId).toBe(threadId); // It was open: it is open again.
    expect(chat.store.getState().threads.map((t) => t.title)).toContain('Kept');
    expect(chat.store.getState().deleting).toBeUndefined();

    await chat.actions.deleteThread(threadId);
    await threads.delete(threadId); // Another tab's Dismiss removed it for good.
    await chat.actions.undoDelete();
    expect(chat.store.getState().note).toBe(ALREADY_REMOVED);
    expect(chat.store.getState().activeThreadId).toBeUndefined();
  });

  it('Undo pressed as the deletion is confirmed does not half-restore it; a restore never reopens a deleted thread', async () => {
    const threadId = await namedThread('Gone');
    await chat.actions.deleteThread(threadId);
    await Promise.all([chat.actions.confirmDelete(), chat.actions.undoDelete()]);
    expect(await app.opened.storage.threads.get(threadId)).toBeUndefined();
    expect(chat.store.getState().threads.map((t) => t.title)).not.toContain('Gone');
    expect(chat.store.getState().activeThreadId).toBeUndefined(); // Not reopened as a thread that is gone.

    // The profile's last thread, deleted and waiting for Undo when the page closed, is not opened at start-up.
    await chat.actions.newThread();
    const waiting = await namedThread('Waiting');
    await chat.actions.deleteThread(waiting);
    const next = createChat(app.deps);
    try {
      await next.actions.openThread(waiting, true);
      expect(next.store.getState().activeThreadId).toBeUndefined();
      expect(next.store.getState().messages).toEqual([]);
    } finally {
      next.dispose();
    }
  });
});

/** The open thread, with one message and the title given. */
async function namedThread(title: string): Promise<string> {
  const threadId = chat.store.getState().activeThreadId!;
  await app.opened.storage.messages.append(threadId, {
    role: 'user',
    blocks: [{ type: 'text', text: `About ${title}` }],
    status: 'complete',
  });
  await chat.actions.renameThread(threadId, title);
  return threadId;
}
