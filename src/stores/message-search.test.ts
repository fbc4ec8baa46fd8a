// Search threads over every message (chat store's searchMessages), with the search's text kept in memory between
// searches (storage/message-search-index.ts): what the person sees found must follow what just happened.
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { fileText } from '../../test/fakes/threads-backup-harness';
import { startTestApp, type TestApp } from '../../test/fakes/test-app';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import type { Change } from '../platform/change-bus';
import { createChat } from './chat-store';
import { exportAllThreads, importThreads } from './threads-backup';

const closing: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** A page of the app over `storage` (its own when omitted), with a chat store. */
async function page(storage?: TestStorage) {
  const app: TestApp = await startTestApp({ apiKey: 'sk-ant-message-search', ...(storage ? { storage } : {}) });
  const chat = createChat(app.deps);
  closing.push(
    () => app.close(),
    () => chat.dispose(),
  );
  await chat.actions.refreshThreads();
  const { actions, store } = chat;
  /** The threads' titles the search finds by a message, with the words as the list shows them. */
  const found = async (needle: string) => {
    const matches = await actions.searchMessages(needle);
    const titles = new Map(store.getState().threads.map((t) => [t.id, t.title]));
    return [...matches].map(([id, m]) => `${titles.get(id)}: ${m.role === 'user' ? 'You: ' : ''}${m.match.match}`);
  };
  /** A new thread named `title` where the person asks `question` and the fake model answers `answer`. */
  const thread = async (title: string, question: string, answer: string) => {
    await actions.newThread();
    const id = store.getState().activeThreadId!;
    app.api.script({ text: answer });
    await actions.send(question);
    await actions.renameThread(id, title);
    return id;
  };
  return { app, chat, actions, store, found, thread };
}

describe('Search threads, by the messages', () => {
  it('finds a message sent a moment ago, and its answer, in a thread it had read before', async () => {
    const { actions, found, thread, app } = await page();
    await thread('Trip', 'Plan a trip to Lima', 'Lima is lovely in May.');
    await thread('Cooking', 'A recipe for ceviche?', 'Lime, fish and onion.');
    actions.prepareSearch();
    expect(await found('lima')).toEqual(['Trip: Lima']);
    expect(await found('cuzco')).toEqual([]);

    await actions.openThread((await app.opened.storage.threads.list(app.profile.id)).items.at(-1)!.id);
    app.api.script({ text: 'Cuzco is high up; take a day to get used to it.' });
    await actions.send('And Cuzco?');
    // The answer is the latest message that holds the word: it is the one shown.
    expect(await found('cuzco')).toEqual(['Trip: Cuzco']);
    expect(await found('and cuzco')).toEqual(['Trip: You: And Cuzco']);
    expect(await found('lime')).toEqual(['Cooking: Lime']);
  });

  it('finds an edited question by its new words, not by the words it had', async () => {
    const { actions, store, found, thread, app } = await page();
    await thread('Trip', 'Plan a trip to Lima', 'Lima is lovely in May.');
    expect(await found('lima')).toEqual(['Trip: Lima']);

    const question = store.getState().messages[0]!;
    app.api.script({ text: 'Quito sits on the equator.' });
    await actions.editMessage(question.id, 'Plan a trip to Quito instead');
    expect(await found('lima')).toEqual([]);
    expect(await found('quito instead')).toEqual(['Trip: You: Quito instead']);
    // The first version shown again: its words are found again.
    await actions.showVersion(question.id);
    expect(await found('lima')).toEqual(['Trip: Lima']);
  });

  it('leaves out a deleted thread, and finds it again after Undo', async () => {
    const { actions, found, thread } = await page();
    const trip = await thread('Trip', 'Plan a trip to Lima', 'Lima is lovely in May.');
    await thread('Other', 'Anything about Lima?', 'Nothing new.');
    expect((await found('lima')).sort()).toEqual(['Other: You: Lima', 'Trip: Lima']);

    await actions.deleteThread(trip);
    expect(await found('lima')).toEqual(['Other: You: Lima']);
    await actions.undoDelete();
    expect((await found('lima')).sort()).toEqual(['Other: You: Lima', 'Trip: Lima']);
    await actions.deleteThread(trip);
    await actions.confirmDelete();
    expect(await found('lima')).toEqual(['Other: You: Lima']);
  });

  it('finds what another tab wrote into a thread it had read', async () => {
    const factory = new IDBFactory();
    const name = `message-search-${Math.random()}`;
    const channelName = `message-search-${Math.random()}`;
    const here = await openTestStorage({ factory, name, channelName });
    const there = await openTestStorage({ factory, name, channelName });
    closing.push(
      () => here.close(),
      () => there.close(),
    );
    const { found, thread } = await page(here);
    const trip = await thread('Trip', 'Plan a trip to Lima', 'Lima is lovely in May.');
    expect(await found('zanzibar')).toEqual([]);

    const heard = new Promise<Change>((resolve) =>
      here.bus.subscribe((change) => change.isRemote && change.store === 'messages' && resolve(change)),
    );
    await there.storage.messages.append(trip, {
      role: 'user',
      status: 'complete',
      blocks: [{ type: 'text', text: 'Or **Zanzibar**, if it is cheaper' }],
    });
    expect((await heard).threadId).toBe(trip);
    expect(await found('zanzibar, if')).toEqual(['Trip: You: Zanzibar, if']);
  });

  it('finds a thread brought back from a backup by what the backup holds', async () => {
    const { app, actions, found, thread } = await page();
    const backupDeps = { storage: app.opened.storage, profileId: app.profile.id, now: () => Date.now() };
    const trip = await thread('Trip', 'Plan a trip to Lima', 'Lima is lovely in May.');
    const backup = fileText(await exportAllThreads(backupDeps));
    // After the backup: a new question, then the thread deleted for good.
    app.api.script({ text: 'Cuzco is high up.' });
    await actions.send('And Cuzco?');
    expect(await found('cuzco')).toEqual(['Trip: Cuzco']);
    await actions.deleteThread(trip);
    await actions.confirmDelete();

    expect(await importThreads(backupDeps, backup)).toMatchObject({
      ok: true,
      imported: ['Thread "Trip": 2 messages'],
    });
    await actions.refreshThreads();
    expect(await found('cuzco')).toEqual([]);
    expect(await found('lovely')).toEqual(['Trip: lovely']);
  });
});
