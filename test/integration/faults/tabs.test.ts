// Fault matrix, tabs: a tab closed mid-answer, an answer still streaming in another tab, and two tabs on one database
// and one server list.
import { describe, expect, it } from 'vitest';
import { STOPPED_NOTE } from '../../../src/agent/model-call';
import { TAB_CLOSED_NOTE } from '../../../src/agent/run-turn';
import { countUsage } from '../../../src/domain/usage-limits';
import { createLocalLocks } from '../../../src/platform/locks';
import { addServer } from '../../../src/stores/server-edit';
import { EMPTY_SERVER_FORM } from '../../../src/stores/server-form';
import { followServerChanges } from '../../../src/stores/server-sync';
import { DELETED_ELSEWHERE } from '../../../src/stores/thread-deletion';
import { openTestStorage, type TestStorage } from '../../fakes/test-storage';
import { faultAppsPerTest, storedMessages, type FaultApp } from './turn-harness';

const { app, cleanup } = faultAppsPerTest();

/** Two tabs: two storages on one fresh database (`prefix`-named) and its change channel, each with a fault app. */
async function twoTabs(prefix: string): Promise<{ tabA: TestStorage; tabB: TestStorage; a: FaultApp; b: FaultApp }> {
  const name = `${prefix}-${Date.now()}`;
  const tabA = await openTestStorage({ name, channelName: name });
  const tabB = await openTestStorage({ name, channelName: name, factory: tabA.factory });
  cleanup(
    () => tabA.close(),
    () => tabB.close(),
  );
  const a = await app({ storage: tabA });
  const b = await app({ storage: tabB });
  return { tabA, tabB, a, b };
}

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

  it('a call cut by the page closing still counts: the streaming record holds its tokens and cost so far', async () => {
    const faults = await app();
    await faults.chat.actions.newThread();
    const threadId = faults.chat.store.getState().activeThreadId!;
    let release!: () => void;
    faults.api.script({
      text: ['Once upon ', 'a time.'],
      usage: { input_tokens: 5_000 },
      holdAfterChunks: { afterChunks: 1, until: new Promise<void>((resolve) => (release = resolve)) },
    });
    const running = faults.chat.actions.send('Tell me a story');
    cleanup(async () => {
      release();
      await running;
    });
    // What a page closed now leaves behind: the first words, and the call as far as it is known.
    await expect
      .poll(async () => (await faults.opened.storage.messages.list(threadId)).items.at(-1)?.blocks)
      .toEqual([{ type: 'text', text: 'Once upon ' }]);
    const stored = (await faults.opened.storage.messages.list(threadId)).items.at(-1)!;
    expect(stored.status).toBe('streaming');
    expect(stored.trace).toHaveLength(1);
    const [cut] = stored.trace;
    expect(cut).toMatchObject({ kind: 'model-call', usage: { input: 5_000 } });
    expect(cut).not.toHaveProperty('error'); // Another tab watching the stream sees no failure in it.
    expect(cut?.kind === 'model-call' && cut.costUsd).toBeGreaterThan(0);
    // The spending limits read usage from stored traces: this call is among them.
    const usage = countUsage(await faults.opened.storage.usage.since(faults.profileId, 0), Date.now());
    expect(usage.callsLastHour).toBe(1);
    expect(usage.tokensToday).toBeGreaterThanOrEqual(5_000);
    // Finished after all, the call is traced once, as it ended.
    release();
    await running;
    const ended = (await faults.opened.storage.messages.list(threadId)).items.at(-1)!;
    expect(ended.status).toBe('complete');
    const calls = ended.trace.filter((e) => e.kind === 'model-call');
    expect(calls).toHaveLength(1);
    expect(calls[0]).not.toHaveProperty('error');
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

describe('two tabs on one database', () => {
  it('switching different servers of one thread at once in two tabs keeps both, and both tabs converge', async () => {
    const { tabA, a, b } = await twoTabs('tabs');
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

describe('a thread deleted in another tab', () => {
  it('stops its turn here and closes, saying so; Undo there opens it here again', async () => {
    const { a, b } = await twoTabs('deleted-elsewhere');
    await a.chat.actions.newThread();
    const threadId = a.chat.store.getState().activeThreadId!;
    a.api.script({ text: ['Still ', 'coming'], stallAfterChunks: 1 });
    const running = a.chat.actions.send('Answer slowly');
    cleanup(async () => {
      a.chat.actions.stop();
      await running;
    });
    await expect.poll(() => a.chat.store.getState().messages.at(-1)?.status).toBe('streaming');
    await b.chat.actions.refreshThreads();
    await b.chat.actions.deleteThread(threadId);
    await running; // Stopped here, without waiting for the answer that never ends.
    expect(a.chat.store.getState()).toMatchObject({ activeThreadId: undefined, note: DELETED_ELSEWHERE });
    expect(a.chat.store.getState().isRunning).toBe(false);
    expect((await storedMessages(a, threadId)).at(-1)).toMatchObject({ status: 'interrupted', error: STOPPED_NOTE });
    await expect.poll(() => a.chat.store.getState().threads.map((t) => t.id)).not.toContain(threadId);
    await b.chat.actions.undoDelete(); // Nothing else was opened here meanwhile: it opens again, the note gone.
    await expect.poll(() => a.chat.store.getState().activeThreadId).toBe(threadId);
    expect(a.chat.store.getState().note).toBeUndefined();
    expect(a.chat.store.getState().threads.map((t) => t.id)).toContain(threadId);
    // Deleted there again, and another thread opened here meanwhile: Undo there leaves this tab where it is.
    await b.chat.actions.deleteThread(threadId);
    await expect.poll(() => a.chat.store.getState().activeThreadId).toBeUndefined();
    await a.chat.actions.newThread();
    const other = a.chat.store.getState().activeThreadId;
    await b.chat.actions.undoDelete();
    await expect.poll(() => a.chat.store.getState().threads.map((t) => t.id)).toContain(threadId);
    expect(a.chat.store.getState().activeThreadId).toBe(other);
  });
});

describe('two tabs on one server list', () => {
  it('servers added, changed and removed in one tab appear, change and go in the other, and both lists match', async () => {
    const { tabA, tabB, a, b } = await twoTabs('servers');
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

  it("a server named like another tab's that waits to be taken in here is refused, not written over it", async () => {
    const { tabA, tabB, a, b } = await twoTabs('server-ids');
    // Tab B's person is typing: it takes new servers of other tabs in only once they pause (never, in this test).
    cleanup(
      followServerChanges({
        storage: tabB.storage,
        registry: b.registry,
        profileId: b.profileId,
        pauses: { idle: () => new Promise<void>(() => undefined), hurry: () => () => undefined },
      }),
    );
    await a.addServer('github', 'https://github.example/mcp');
    expect(b.registry.get('github')).toBeUndefined();

    const form = { ...EMPTY_SERVER_FORM, name: 'GitHub', url: 'https://my-github.example/mcp' };
    const refused = await addServer({ registry: b.registry, storage: tabB.storage, profileId: b.profileId }, form, () =>
      Promise.resolve(),
    );
    // The same name (case aside): refused with the reason, and the other tab's server stays as it was; another name
    // gets an id of its own.
    expect(refused?.name).toMatch(/already exists/);
    const stored = async () =>
      (await tabA.storage.profiles.listServers(a.profileId)).items.map((s) => `${s.id}=${s.name}@${s.url}`).sort();
    expect(await stored()).toEqual(['github=github@https://github.example/mcp']);

    await addServer(
      { registry: b.registry, storage: tabB.storage, profileId: b.profileId },
      { ...form, name: 'GitHub (mine)' },
      () => Promise.resolve(),
    );
    expect(await stored()).toEqual([
      'github-mine=GitHub (mine)@https://my-github.example/mcp',
      'github=github@https://github.example/mcp',
    ]);
  });
});
