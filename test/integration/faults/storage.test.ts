// Fault matrix, browser storage: a full disk (before a question, while an answer streams, nearly full), a corrupted
// record, and a huge paste the API refuses.
import { describe, expect, it } from 'vitest';
import { NOT_SAVED_NOTE } from '../../../src/turns/turn-runner';
import { failObjectStore } from '../../fakes/idb-faults';
import { faultAppsPerTest, storedMessages, type FaultApp } from './turn-harness';

const { app, cleanup } = faultAppsPerTest();
const QUOTA = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');
const FULL_DISK_MESSAGES =
  'Browser storage is full, so the change to messages was not saved. Free space by deleting old threads, or allow this site more storage.';
const FULL_DISK =
  'Browser storage is full, so the change to threads, messages was not saved. Free space by deleting old threads, or allow this site more storage.';

/**
 * Sends `question` in a new thread; its answer holds after its first words until `fillDisk()` (no race with the
 * stream, however busy the machine). Resolves once those words are stored.
 */
async function answerHeldAfterFirstWords(
  question: string,
): Promise<{ faults: FaultApp; threadId: string; fillDisk: () => void; running: Promise<boolean> }> {
  const faults = await app();
  await faults.chat.actions.newThread();
  const threadId = faults.chat.store.getState().activeThreadId!;
  let fillDisk!: () => void;
  const diskFull = new Promise<void>((resolve) => (fillDisk = resolve));
  faults.api.script({
    text: ['First words, ', 'then ', 'the ', 'rest.'],
    holdAfterChunks: { afterChunks: 1, until: diskFull },
  });
  const running = faults.chat.actions.send(question);
  cleanup(async () => {
    fillDisk(); // Lets the answer end also when an assertion failed.
    await running;
  });
  await expect
    .poll(async () => (await storedMessages(faults, threadId)).at(-1))
    .toMatchObject({ role: 'assistant', status: 'streaming', text: 'First words, ' });
  return { faults, threadId, fillDisk, running };
}

describe('storage faults', () => {
  it('a full disk: a clear notice, no half-written turn, the thread as it was', async () => {
    const faults = await app();
    await faults.chat.actions.newThread();
    const threadId = faults.chat.store.getState().activeThreadId!;
    faults.api.script({ text: 'Saved answer.' });
    // Send tells whether the person's message was stored (a refused one goes back into the composer).
    expect(await faults.chat.actions.send('Before the disk filled')).toBe(true);
    const before = await storedMessages(faults, threadId);
    const restore = failObjectStore('messages', 'add', QUOTA());
    cleanup(restore);
    faults.api.script({ text: 'Never stored.' });
    expect(await faults.chat.actions.send('After the disk filled')).toBe(false);
    restore();
    expect(faults.chat.store.getState().notice).toBe(FULL_DISK);
    expect(faults.chat.store.getState().isRunning).toBe(false);
    expect(await storedMessages(faults, threadId)).toEqual(before);
    expect(faults.chat.store.getState().messages.map((m) => m.id)).toEqual(
      (await faults.opened.storage.messages.list(threadId)).items.map((m) => m.id),
    );
    expect(faults.api.pendingTurns).toBe(1); // No model call was made for a question that could not be saved.
  });

  it('a disk that fills while an answer streams: the answer shows why it was not kept, and Retry saves it once there is room', async () => {
    const { faults, threadId, fillDisk, running } = await answerHeldAfterFirstWords('Answer while the disk fills');
    // From here on, every change to a stored message fails as on a full disk.
    const restore = failObjectStore('messages', 'put', QUOTA());
    cleanup(restore);
    fillDisk();
    await running;
    const state = faults.chat.store.getState();
    // Not "in progress" forever: the answer as it arrived, marked with why it was not kept (Retry is offered for it).
    expect(state.isRunning).toBe(false);
    expect(state.messages.at(-1)).toMatchObject({
      role: 'assistant',
      status: 'error',
      error: FULL_DISK_MESSAGES,
      blocks: [{ type: 'text', text: 'First words, then the rest.' }],
    });
    expect(state.notice).toBe(FULL_DISK_MESSAGES);
    // Still full, opened again (another thread and back, a reload): the stored first words, failed with Retry, not
    // "in progress" (marking it interrupted is refused too).
    await faults.chat.actions.openThread(threadId);
    expect(faults.chat.store.getState().messages.at(-1)).toMatchObject({
      status: 'error',
      error: NOT_SAVED_NOTE,
      blocks: [{ type: 'text', text: 'First words, ' }],
    });
    // Retry while it is still full: the notice says so again, no model call is made, and Retry stays on offer.
    faults.chat.actions.dismissNotice();
    const calls = faults.api.requests.length;
    await faults.chat.actions.retry();
    expect(faults.chat.store.getState().notice).toBe(FULL_DISK_MESSAGES);
    expect(faults.api.requests.length).toBe(calls);
    expect(faults.chat.store.getState().messages.at(-1)).toMatchObject({ status: 'error', error: NOT_SAVED_NOTE });
    restore();
    faults.api.script({ text: 'Saved this time.' });
    await faults.chat.actions.retry();
    // The question once, the unsaved answer kept as a failed attempt (with what was stored of it, never sent to the
    // model again: the request below), and the new answer stored.
    expect((await storedMessages(faults, threadId)).map((m) => `${m.role}:${m.status}:${m.text}`)).toEqual([
      'user:complete:Answer while the disk fills',
      'assistant:error:First words, ',
      'assistant:complete:Saved this time.',
    ]);
    expect(faults.api.requests.at(-1)?.body.messages).toEqual([
      {
        role: 'user',
        content: [{ type: 'text', text: 'Answer while the disk fills', cache_control: { type: 'ephemeral' } }],
      },
    ]);
    expect(faults.chat.store.getState().messages.at(-1)).toMatchObject({
      status: 'complete',
      blocks: [{ type: 'text', text: 'Saved this time.' }],
    });
  });

  it('a nearly full disk that refuses the whole answer but takes the small "interrupted" mark: the whole answer stays shown, with why', async () => {
    const { faults, threadId, fillDisk, running } = await answerHeldAfterFirstWords(
      'Answer while the disk nearly fills',
    );
    // Room for a few bytes more only: the answer's later words do not fit, the mark on its first words does.
    const restore = failObjectStore('messages', 'put', QUOTA(), (record) => JSON.stringify(record).includes('then '));
    cleanup(restore);
    fillDisk();
    await running;
    expect((await storedMessages(faults, threadId)).at(-1)).toMatchObject({
      status: 'interrupted',
      text: 'First words, ',
    });
    expect(faults.chat.store.getState().messages.at(-1)).toMatchObject({
      role: 'assistant',
      status: 'error',
      error: FULL_DISK_MESSAGES,
      blocks: [{ type: 'text', text: 'First words, then the rest.' }],
    });
  });

  it('a corrupted message and a corrupted thread are skipped with a notice; the rest loads', async () => {
    const faults = await app();
    const { storage, db } = faults.opened;
    const thread = await storage.threads.create(faults.profileId, { title: 'Mostly fine' });
    await storage.messages.append(thread.id, {
      role: 'user',
      blocks: [{ type: 'text', text: 'Readable' }],
      status: 'complete',
    });
    await db.put('messages', { id: 'garbled', threadId: thread.id, seq: 1, role: 'robot', blocks: 'x' });
    await storage.messages.append(thread.id, {
      role: 'assistant',
      blocks: [{ type: 'text', text: 'Also readable' }],
      status: 'complete',
    });
    await db.put('threads', { id: 'broken-thread', profileId: faults.profileId, updatedAt: 1, title: 42 });
    await faults.chat.actions.refreshThreads();
    expect(faults.chat.store.getState().threads.map((t) => t.title)).toEqual(['Mostly fine']);
    expect(faults.chat.store.getState().notice).toMatch(
      /^Stored thread record "broken-thread" is unreadable \(title: .*\); it was skipped\.$/,
    );
    await faults.chat.actions.openThread(thread.id);
    expect(faults.chat.store.getState().messages.map((m) => m.blocks)).toEqual([
      [{ type: 'text', text: 'Readable' }],
      [{ type: 'text', text: 'Also readable' }],
    ]);
    expect(faults.chat.store.getState().notice).toMatch(
      /^Stored message record "garbled" is unreadable \(.*\); it was skipped\.$/,
    );
  });
});

describe('bad input a person types', () => {
  it('a huge paste (2 MB) is kept whole; an API that refuses its size says so, and the thread keeps working', async () => {
    // A 1M-token window: in a 200k one the 2 MB paste (~540k tokens) is refused as "prompt is too long" on every
    // later turn too, the long-thread wall of issue #17 item 4.
    const faults = await app({ api: { contextWindowTokens: 1_000_000 } });
    await faults.chat.actions.newThread();
    const threadId = faults.chat.store.getState().activeThreadId!;
    const paste = 'log line with some words 0123456789\n'.repeat(60_000);
    faults.api.script({
      error: {
        status: 413,
        type: 'request_too_large',
        message: 'Request exceeds the maximum allowed number of bytes.',
      },
    });
    await faults.chat.actions.send(paste);
    const stored = await storedMessages(faults, threadId);
    expect(stored[0]?.text).toBe(paste.trim());
    expect(stored[1]).toMatchObject({
      status: 'error',
      error: 'The API refused the request. (Request exceeds the maximum allowed number of bytes.)',
    });
    expect(faults.chat.store.getState().threads.find((t) => t.id === threadId)?.title).toBe(
      'log line with some words 0123456789',
    );
    faults.api.script({ text: 'Short one works.' });
    await faults.chat.actions.send('Short question');
    expect((await storedMessages(faults, threadId)).at(-1)).toMatchObject({
      status: 'complete',
      text: 'Short one works.',
    });
  });
});
