// Fault matrix, browser storage and tabs: a closed tab mid-answer, a full disk, a corrupted record, two tabs at once.
import { describe, expect, it } from 'vitest';
import { STOPPED_NOTE } from '../../../src/agent/model-call';
import { TAB_CLOSED_NOTE } from '../../../src/agent/run-turn';
import { NOT_SAVED_NOTE } from '../../../src/turns/turn-runner';
import { createLocalLocks } from '../../../src/platform/locks';
import { followServerChanges } from '../../../src/stores/server-sync';
import { failObjectStore } from '../../fakes/idb-faults';
import { openTestStorage } from '../../fakes/test-storage';
import { faultAppsPerTest, storedMessages, type FaultApp } from './turn-harness';

const { app, cleanup } = faultAppsPerTest();
const QUOTA = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');
const FULL_DISK_MESSAGES =
  'Browser storage is full, so the change to messages was not saved. Free space by deleting old threads, or allow this site more storage.';
const FULL_DISK =
  'Browser storage is full, so the change to threads, messages was not saved. Free space by deleting old threads, or allow this site more storage.';

describe('a tab closed during a streaming answer', () => {
  it('reopened: the saved part of the answer is there, marked interrupted with a note', async () => {
    const faults = await app();
    const { storage } = faults.opened;
    const thread = await storage.threads.create(faults.profileId, { title: 'Closed mid-answer' });
    await storage.messages.append(thread.id, {
      role: 'user',
      blocks: [{ type: 'text', text: 'Tell me a story' }],
      status: 'complete',
    });
    // What a tab leaves when it closes mid-answer: the text written so far, still marked streaming.
    await storage.messages.append(thread.id, {
      role: 'assistant',
      blocks: [{ type: 'text', text: 'Once upon a time' }],
      status: 'streaming',
    });
    await faults.chat.actions.openThread(thread.id);
    expect(faults.chat.store.getState().messages.map((m) => [m.status, m.error])).toEqual([
      ['complete', undefined],
      ['interrupted', TAB_CLOSED_NOTE],
    ]);
    expect(await storedMessages(faults, thread.id)).toEqual([
      { role: 'user', status: 'complete', text: 'Tell me a story' },
      { role: 'assistant', status: 'interrupted', text: 'Once upon a time', error: TAB_CLOSED_NOTE },
    ]);
    faults.api.script({ text: 'The end.' });
    await faults.chat.actions.send('Go on');
    expect(faults.api.requests.at(-1)?.body.messages).toEqual([
      // Cache breakpoints where the previous request ended and on the newest block (agent/cache-breakpoints.ts).
      { role: 'user', content: [{ type: 'text', text: 'Tell me a story', cache_control: { type: 'ephemeral' } }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Once upon a time' }] },
      { role: 'user', content: [{ type: 'text', text: 'Go on', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it("an answer still streaming in another tab is left alone (its tab holds the thread's lock)", async () => {
    const locks = createLocalLocks(); // Web Locks are shared by all tabs of the origin.
    const first = await app({ locks });
    const second = await app({ locks, storage: first.opened });
    await first.chat.actions.newThread();
    const threadId = first.chat.store.getState().activeThreadId!;
    first.api.script({ text: ['Still ', 'coming'], stallAfterChunks: 1 });
    const running = first.chat.actions.send('Answer slowly');
    cleanup(async () => {
      first.chat.actions.stop(); // Ends the stalled turn before storage closes, also when an assertion failed.
      await running;
    });
    await expect.poll(() => first.chat.store.getState().messages.at(-1)?.status).toBe('streaming');
    // The first words are saved at once, so a tab closed now would keep them.
    await expect
      .poll(async () => (await storedMessages(first, threadId)).at(-1))
      .toMatchObject({ status: 'streaming', text: 'Still ' });
    await second.chat.actions.refreshThreads();
    await second.chat.actions.openThread(threadId);
    expect(second.chat.store.getState().messages.at(-1)?.status).toBe('streaming');
    first.chat.actions.stop();
    await running;
    expect((await storedMessages(first, threadId)).at(-1)).toMatchObject({
      status: 'interrupted',
      error: STOPPED_NOTE,
    });
  });
});

describe('storage faults', () => {
  it('a full disk: a clear notice, no half-written turn, the thread as it was', async () => {
    const faults = await app();
    await faults.chat.actions.newThread();
    const threadId = faults.chat.store.getState().activeThreadId!;
    faults.api.script({ text: 'Saved answer.' });
    await faults.chat.actions.send('Before the disk filled');
    const before = await storedMessages(faults, threadId);
    const restore = failObjectStore('messages', 'add', QUOTA());
    cleanup(restore);
    faults.api.script({ text: 'Never stored.' });
    await faults.chat.actions.send('After the disk filled');
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
    const faults = await app();
    await faults.chat.actions.newThread();
    const threadId = faults.chat.store.getState().activeThreadId!;
    let fillDisk!: () => void;
    const diskFull = new Promise<void>((resolve) => (fillDisk = resolve));
    // The answer holds after its first words until the disk is full: no race with the stream, however busy the machine.
    faults.api.script({
      text: ['First words, ', 'then ', 'the ', 'rest.'],
      holdAfterChunks: { afterChunks: 1, until: diskFull },
    });
    const running = faults.chat.actions.send('Answer while the disk fills');
    cleanup(async () => {
      fillDisk(); // Lets the answer end also when an assertion below failed.
      await running;
    });
    await expect
      .poll(async () => (await storedMessages(faults, threadId)).at(-1))
      .toMatchObject({ role: 'assistant', status: 'streaming', text: 'First words, ' });
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
    // The question once, the unsaved answer kept as a failed attempt, and the new answer stored.
    expect((await storedMessages(faults, threadId)).map((m) => `${m.role}:${m.status}:${m.text}`)).toEqual([
      'user:complete:Answer while the disk fills',
      'assistant:error:',
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
    const faults = await app();
    await faults.chat.actions.newThread();
    const threadId = faults.chat.store.getState().activeThreadId!;
    let fillDisk!: () => void;
    const diskFull = new Promise<void>((resolve) => (fillDisk = resolve));
    faults.api.script({
      text: ['First words, ', 'then ', 'the ', 'rest.'],
      holdAfterChunks: { afterChunks: 1, until: diskFull },
    });
    const running = faults.chat.actions.send('Answer while the disk nearly fills');
    cleanup(async () => {
      fillDisk();
      await running;
    });
    await expect
      .poll(async () => (await storedMessages(faults, threadId)).at(-1))
      .toMatchObject({ role: 'assistant', status: 'streaming', text: 'First words, ' });
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

describe('two tabs on one database', () => {
  it('switching different servers of one thread at once in two tabs keeps both, and both tabs converge', async () => {
    const name = `tabs-${Date.now()}`;
    const tabA = await openTestStorage({ name, channelName: name });
    const tabB = await openTestStorage({ name, channelName: name, factory: tabA.factory });
    cleanup(
      () => tabA.close(),
      () => tabB.close(),
    );
    const a = await app({ storage: tabA });
    const b = await app({ storage: tabB });
    const thread = await tabA.storage.threads.create(a.profileId, { title: 'Shared', enabledServerIds: ['kept'] });
    await Promise.all([a.chat.actions.refreshThreads(), b.chat.actions.refreshThreads()]);
    await Promise.all([a.chat.actions.openThread(thread.id), b.chat.actions.openThread(thread.id)]);
    // Both tabs act on the same stale view: A switches "north" on, B switches "south" on and "kept" off.
    await Promise.all([
      a.chat.actions.setThreadServers(thread.id, ['kept', 'north']),
      b.chat.actions.setThreadServers(thread.id, ['south']),
    ]);
    expect([...((await tabA.storage.threads.get(thread.id))?.enabledServerIds ?? [])].sort()).toEqual([
      'north',
      'south',
    ]);
    const enabledIn = (tab: FaultApp) =>
      [...(tab.chat.store.getState().threads.find((t) => t.id === thread.id)?.enabledServerIds ?? [])].sort();
    await expect.poll(() => enabledIn(a)).toEqual(['north', 'south']);
    await expect.poll(() => enabledIn(b)).toEqual(['north', 'south']);
    await a.chat.actions.renameThread(thread.id, 'Renamed in A');
    await expect.poll(() => b.chat.store.getState().threads.map((t) => t.title)).toEqual(['Renamed in A']);
  });
});

describe('two tabs on one server list', () => {
  it('servers added, changed and removed in one tab appear, change and go in the other, and both lists match', async () => {
    const name = `servers-${Date.now()}`;
    const tabA = await openTestStorage({ name, channelName: name });
    const tabB = await openTestStorage({ name, channelName: name, factory: tabA.factory });
    cleanup(
      () => tabA.close(),
      () => tabB.close(),
    );
    const a = await app({ storage: tabA });
    const b = await app({ storage: tabB });
    cleanup(followServerChanges({ storage: tabB.storage, registry: b.registry, profileId: b.profileId }));
    const names = (tab: FaultApp) =>
      tab.registry
        .list()
        .map((s) => `${s.config.id}=${s.config.name}@${s.config.url}`)
        .sort();

    await Promise.all([
      a.addServer('north', 'https://north.example/mcp'),
      a.addServer('south', 'https://south.example/mcp'),
    ]);
    await expect
      .poll(() => names(b))
      .toEqual(['north=north@https://north.example/mcp', 'south=south@https://south.example/mcp']);

    const renamed = { id: 'north', name: 'North (EU)', url: 'https://eu.north.example/mcp' };
    await a.registry.update(renamed);
    await tabA.storage.profiles.saveServer(a.profileId, renamed);
    await a.registry.unregister('south');
    await tabA.storage.profiles.removeServer(a.profileId, 'south');
    await expect.poll(() => names(b)).toEqual(['north=North (EU)@https://eu.north.example/mcp']);
    expect(names(b)).toEqual(names(a));
    expect((await tabB.storage.profiles.listServers(b.profileId)).items.map((s) => s.name)).toEqual(['North (EU)']);
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
