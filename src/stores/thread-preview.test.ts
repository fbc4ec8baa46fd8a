// The thread list's preview line follows the branch a thread shows (issue #22): switching versions, an edit or a
// regenerate whose answer brought no text, a reload and another tab all read the shown branch's latest answer.
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/fakes/test-app';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import { createChat } from './chat-store';

const closing: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** A page of the app over `storage` (its own when omitted), with a chat store. */
async function page(storage?: TestStorage) {
  const app = await startTestApp({ apiKey: 'sk-ant-thread-preview', ...(storage ? { storage } : {}) });
  const chat = createChat(app.deps);
  closing.push(
    () => app.close(),
    () => chat.dispose(),
  );
  await chat.actions.refreshThreads();
  const { actions, store } = chat;
  /** The preview line the list shows under the thread, as this page holds it. */
  const preview = (threadId: string) => store.getState().threads.find((t) => t.id === threadId)?.preview;
  /** The line as stored (what a reload lists), and the threads the search finds by a message. */
  const stored = async (threadId: string) => (await app.opened.storage.threads.get(threadId))?.preview;
  const foundIn = async (needle: string) => [...(await actions.searchMessages(needle)).keys()];
  return { app, actions, store, preview, stored, foundIn };
}

/** Resolves once `check` holds for the store's state (checked on each change). */
function when<T>(
  store: { getState(): T; subscribe(listener: (state: T) => void): () => void },
  check: (s: T) => boolean,
) {
  return new Promise<void>((resolve) => {
    if (check(store.getState())) return resolve();
    const stop = store.subscribe((state) => {
      if (!check(state)) return;
      stop();
      resolve();
    });
  });
}

describe("the thread list's preview line", () => {
  it('follows the version shown, in this page, after a reload and in the search', async () => {
    const { app, actions, store, preview, stored, foundIn } = await page();
    await actions.newThread();
    const threadId = store.getState().activeThreadId!;
    app.api.script({ text: 'Paris: five days.' });
    await actions.send('Plan a trip to Paris');
    const question = store.getState().messages[0]!;
    app.api.script({ text: 'Short Title' });
    await actions.editMessage(question.id, 'uniquezebra title');
    expect(preview(threadId)).toBe('Short Title');

    await actions.showVersion(question.id);
    expect(preview(threadId)).toBe('Paris: five days.');
    expect(await stored(threadId)).toBe('Paris: five days.');
    // The search finds what the shown branch holds, and nothing of the hidden one, by line or by message.
    expect(await foundIn('five days')).toEqual([threadId]);
    expect(await foundIn('short title')).toEqual([]);
    expect(await foundIn('uniquezebra')).toEqual([]);

    // Opened again (a reload): the list reads the line of the branch chosen last.
    const again = createChat(app.deps);
    closing.push(() => again.dispose());
    await again.actions.refreshThreads();
    expect(again.store.getState().threads.find((t) => t.id === threadId)?.preview).toBe('Paris: five days.');

    await actions.showVersion(store.getState().versions.get(question.id)!.at(-1)!);
    expect(preview(threadId)).toBe('Short Title');
    expect(await foundIn('uniquezebra')).toEqual([threadId]);
    expect(await foundIn('five days')).toEqual([]);
  });

  it('keeps its place in the list: switching versions is no activity', async () => {
    const { app, actions, store } = await page();
    await actions.newThread();
    const first = store.getState().activeThreadId!;
    app.api.script({ text: 'One.' }, { text: 'Two.' });
    await actions.send('First question');
    const question = store.getState().messages[0]!;
    await actions.editMessage(question.id, 'First question, again');
    await actions.newThread();
    app.api.script({ text: 'Other.' });
    await actions.send('Another thread');
    const order = store.getState().threads.map((t) => t.id);
    expect(order[1]).toBe(first);

    await actions.openThread(first);
    await actions.showVersion(question.id);
    expect(store.getState().threads.map((t) => t.id)).toEqual(order);
    expect(store.getState().threads[1]!.preview).toBe('One.');
  });

  it('an edit or a regenerate whose answer brought no text leaves no line of the branch it left', async () => {
    const { app, actions, store, preview } = await page();
    await actions.newThread();
    const threadId = store.getState().activeThreadId!;
    app.api.script({ text: 'Lima is lovely in May.' }, { text: 'Take a coat.' });
    await actions.send('Plan a trip to Lima');
    await actions.send('And the weather?');
    expect(preview(threadId)).toBe('Take a coat.');

    // Regenerate refused: the shown branch's latest answer is the one before the question.
    app.api.script({ error: { status: 400, message: 'Refused.' } });
    await actions.regenerate(store.getState().messages.at(-1)!.id);
    expect(store.getState().messages.at(-1)).toMatchObject({ status: 'error', blocks: [] });
    expect(preview(threadId)).toBe('Lima is lovely in May.');

    // An edit of the first question refused: the shown branch holds no answer, so no line.
    app.api.script({ error: { status: 400, message: 'Refused.' } });
    await actions.editMessage(store.getState().messages[0]!.id, 'Plan a trip to Quito');
    expect(store.getState().messages.map((m) => m.status)).toEqual(['complete', 'error']);
    expect(preview(threadId)).toBeUndefined();
  });

  it('another tab shows the line of the version chosen here', async () => {
    const factory = new IDBFactory();
    const name = `thread-preview-${Math.random()}`;
    const channelName = `thread-preview-${Math.random()}`;
    const here = await openTestStorage({ factory, name, channelName });
    const there = await openTestStorage({ factory, name, channelName });
    closing.push(
      () => here.close(),
      () => there.close(),
    );
    const a = await page(here);
    const b = await page(there);
    await a.actions.newThread();
    const threadId = a.store.getState().activeThreadId!;
    a.app.api.script({ text: 'Paris: five days.' }, { text: 'Rome: four days.' });
    await a.actions.send('Plan a trip to Paris');
    const question = a.store.getState().messages[0]!;
    await a.actions.editMessage(question.id, 'Plan a trip to Rome');
    await when(b.store, () => b.preview(threadId) === 'Rome: four days.');

    await a.actions.showVersion(question.id);
    await when(b.store, () => b.preview(threadId) === 'Paris: five days.');
    expect(await b.foundIn('rome')).toEqual([]);
    expect(await b.foundIn('paris')).toEqual([threadId]);
  });
});
