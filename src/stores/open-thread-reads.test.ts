// The exported thread's file name (open-thread-reads.ts) through the chat store, over real storage (fake-indexeddb).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/fakes/test-app';
import { createChat, type ChatActions, type ChatStore } from './chat-store';

let app: TestApp;
let chat: { store: ChatStore; actions: ChatActions; dispose: () => void };

beforeAll(async () => {
  app = await startTestApp({ apiKey: 'sk-ant-thread-export' });
  chat = createChat(app.deps);
  await chat.actions.newThread();
});

afterAll(async () => {
  chat?.dispose();
  await app?.close();
});

const exportedAs = async (title: string) => {
  expect(await chat.actions.renameThread(chat.store.getState().activeThreadId!, title)).toBeUndefined();
  return [chat.actions.exportThread('markdown')?.name, chat.actions.exportThread('json')?.name];
};

describe("an exported thread's file name", () => {
  it('a long title is cut with no space before the extension', async () => {
    expect(await exportedAs('A very very long thread title that goes on and on and on to the end of it')).toEqual([
      'A very very long thread title that goes on and on and on to.md',
      'A very very long thread title that goes on and on and on to.json',
    ]);
  });

  it('a title in a non-Latin script keeps its words', async () => {
    expect(await exportedAs('東京の天気')).toEqual(['東京の天気.md', '東京の天気.json']);
    expect(await exportedAs('Погода: Москва')).toEqual(['Погода Москва.md', 'Погода Москва.json']);
  });
});
