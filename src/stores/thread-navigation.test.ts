// Renaming a thread (thread-navigation.ts) through the chat store, over real storage (fake-indexeddb).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/fakes/test-app';
import { createChat, type ChatActions, type ChatStore } from './chat-store';

let app: TestApp;
let chat: { store: ChatStore; actions: ChatActions; dispose: () => void };

beforeAll(async () => {
  app = await startTestApp({ apiKey: 'sk-ant-thread-rename' });
  chat = createChat(app.deps);
});

afterAll(async () => {
  chat?.dispose();
  await app?.close();
});

describe('renaming a thread', () => {
  it('an empty or blank title is refused in plain words, and the old title stays, listed and stored', async () => {
    await chat.actions.newThread();
    const threadId = chat.store.getState().activeThreadId!;
    expect(await chat.actions.renameThread(threadId, 'Trip to Lima')).toBeUndefined();
    for (const title of ['', '   ']) {
      expect(await chat.actions.renameThread(threadId, title)).toBe('A thread needs a title.');
      expect(chat.store.getState().threads.find((t) => t.id === threadId)?.title).toBe('Trip to Lima');
      expect((await app.opened.storage.threads.get(threadId))?.title).toBe('Trip to Lima');
    }
  });

  it('a title past 200 characters is refused in plain words', async () => {
    const threadId = chat.store.getState().activeThreadId!;
    expect(await chat.actions.renameThread(threadId, 'x'.repeat(201))).toBe(
      'A thread title can be at most 200 characters.',
    );
    expect((await app.opened.storage.threads.get(threadId))?.title).toBe('Trip to Lima');
  });
});
