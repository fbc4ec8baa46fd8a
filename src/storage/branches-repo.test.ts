import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import type { NewMessage } from '../domain/message';
import { openAppDatabase } from '../platform/database';

let opened: TestStorage[] = [];
afterEach(() => {
  for (const o of opened) o.close();
  opened = [];
});

const say = (role: 'user' | 'assistant', text: string): NewMessage => ({
  role,
  blocks: [{ type: 'text', text }],
  status: 'complete',
});
const texts = (items: readonly { blocks: readonly { type: string; text?: string }[] }[]) =>
  items.map((m) => m.blocks.map((b) => b.text ?? '').join(''));

async function setup() {
  const o = await openTestStorage();
  opened.push(o);
  const profile = await o.storage.profiles.ensureActive();
  const thread = await o.storage.threads.create(profile.id);
  return { ...o, thread };
}

describe('messages repository with branches (issue #22)', () => {
  it('an edit after an earlier message starts a branch that list() shows, keeping the old one as a version', async () => {
    const { storage, thread } = await setup();
    const u1 = await storage.messages.append(thread.id, say('user', 'Plan a trip'));
    await storage.messages.append(thread.id, say('assistant', 'Where to?'));
    const u2 = await storage.messages.append(thread.id, say('user', 'Paris'));
    await storage.messages.append(thread.id, say('assistant', 'Paris it is'));
    const a1 = (await storage.messages.list(thread.id)).items[1]!;
    expect(u1.parentId).toBeNull();
    expect(u2.parentId).toBe(a1.id);

    const edited = await storage.messages.append(thread.id, say('user', 'Rome'), a1.id);
    await storage.messages.append(thread.id, say('assistant', 'Rome it is'));
    const shown = await storage.messages.list(thread.id);
    expect(texts(shown.items)).toEqual(['Plan a trip', 'Where to?', 'Rome', 'Rome it is']);
    expect(shown.versions.get(edited.id)).toEqual([u2.id, edited.id]);
    expect(texts(shown.offBranch)).toEqual(['Paris', 'Paris it is']);

    // Back to the first version: its answer comes with it, and the choice is stored for the next load.
    expect(await storage.messages.showBranch(thread.id, u2.id)).toBe(shown.offBranch[1]!.id);
    expect(texts((await storage.messages.list(thread.id)).items)).toEqual([
      'Plan a trip',
      'Where to?',
      'Paris',
      'Paris it is',
    ]);
    // A message sent now goes on from the branch that is shown.
    await storage.messages.append(thread.id, say('user', 'And then?'));
    expect(texts((await storage.messages.list(thread.id)).items).slice(2)).toEqual([
      'Paris',
      'Paris it is',
      'And then?',
    ]);
    expect(texts((await storage.messages.listTo(thread.id, edited.id)).items)).toEqual([
      'Plan a trip',
      'Where to?',
      'Rome',
    ]);
  });

  it('switching branches keeps the thread’s place in the thread list', async () => {
    const { storage, thread } = await setup();
    const u1 = await storage.messages.append(thread.id, say('user', 'one'));
    await storage.messages.append(thread.id, say('user', 'two'), null);
    const before = (await storage.threads.get(thread.id))!.updatedAt;
    await storage.messages.showBranch(thread.id, u1.id);
    expect((await storage.threads.get(thread.id))!.updatedAt).toBe(before);
    expect(texts((await storage.messages.list(thread.id)).items)).toEqual(['one']);
  });

  it('a corrupt message inside a branch is reported and skipped; the messages around it still load', async () => {
    const { storage, db, thread } = await setup();
    await storage.messages.append(thread.id, say('user', 'first'));
    const middle = await storage.messages.append(thread.id, say('assistant', 'middle'));
    await storage.messages.append(thread.id, say('user', 'last'));
    await db.put('messages', { ...middle, role: 'robot' });
    const { items, skipped } = await storage.messages.list(thread.id);
    expect(texts(items)).toEqual(['first', 'last']);
    expect(skipped).toHaveLength(1);
  });

  it("the search over messages reads each thread's shown branch, and a corrupt record does not stop it", async () => {
    const { storage, db, thread } = await setup();
    const other = await storage.threads.create(thread.profileId, { title: 'Other' });
    const quiet = await storage.threads.create(thread.profileId, { title: 'Quiet' });
    await storage.messages.append(thread.id, say('user', 'Plan a trip'));
    const a1 = await storage.messages.append(thread.id, say('assistant', 'Where to? Paris is **lovely** in May.'));
    await storage.messages.append(thread.id, say('user', 'Paris, then'));
    await storage.messages.append(thread.id, say('assistant', 'Paris it is.'));
    await storage.messages.append(thread.id, say('user', 'Rome, rather'), a1.id); // An edit: Paris goes off-branch.
    await storage.messages.append(other.id, say('user', 'Is Paris lovely in winter?'));
    const corrupt = await storage.messages.append(other.id, say('assistant', 'Paris is grey.'));
    await db.put('messages', { ...corrupt, blocks: 'not blocks' });
    await storage.messages.append(quiet.id, say('user', 'Nothing about it here'));
    const ids = [thread.id, other.id, quiet.id];

    const found = await storage.messages.search(ids, 'paris');
    expect([...found.keys()].sort()).toEqual([thread.id, other.id].sort());
    // The latest message that holds it on the branch shown: "Paris, then" is on the branch the edit left.
    expect(found.get(thread.id)).toMatchObject({ messageId: a1.id, role: 'assistant' });
    expect(found.get(thread.id)?.match).toEqual({ before: 'Where to? ', match: 'Paris', after: ' is lovely in May.' });
    expect(found.get(other.id)?.match.after).toBe(' lovely in winter?');
    // Back on the first branch, its words are found again; a thread not asked about is not read.
    await storage.messages.showBranch(thread.id, (await storage.messages.list(thread.id)).offBranch[0]!.id);
    expect((await storage.messages.search(ids, 'paris, then')).get(thread.id)?.match.match).toBe('Paris, then');
    expect((await storage.messages.search([quiet.id], 'paris')).size).toBe(0);
  });

  it('another tab sees the new branch and the one shown', async () => {
    const factory = new IDBFactory();
    const name = `branches-tabs-${Math.random()}`;
    const channelName = `branches-${Math.random()}`;
    const a = await openTestStorage({ factory, name, channelName });
    const b = await openTestStorage({ factory, name, channelName });
    opened.push(a, b);
    const profile = await a.storage.profiles.ensureActive();
    const thread = await a.storage.threads.create(profile.id);
    const heard = new Promise<void>((resolve) =>
      b.storage.changes.subscribe((change) => {
        if (change.isRemote && change.store === 'messages' && change.threadId === thread.id && !change.key) resolve();
      }),
    );
    const first = await a.storage.messages.append(thread.id, say('user', 'first'));
    await a.storage.messages.append(thread.id, say('user', 'second'), null);
    await a.storage.messages.showBranch(thread.id, first.id);
    await heard;
    const seen = await b.storage.messages.list(thread.id);
    expect(texts(seen.items)).toEqual(['first']);
    expect(seen.versions.get(first.id)?.length).toBe(2);
  });
});

describe('schema step for branches', () => {
  it('a populated version-4 database keeps every message, and each old thread reads as a single branch', async () => {
    const factory = new IDBFactory();
    const v4 = await openAppDatabase(factory, { name: 'to-branches', version: 4 });
    const thread = (id: string) => ({
      id,
      profileId: 'p1',
      title: id,
      createdAt: 1,
      updatedAt: 2,
      enabledServerIds: [],
      loadedTools: [],
      pinnedTools: [],
    });
    const message = (threadId: string, seq: number, text: string) => ({
      id: `${threadId}-m${seq}`,
      threadId,
      seq,
      role: seq % 2 === 0 ? 'user' : 'assistant',
      blocks: [{ type: 'text', text }],
      status: 'complete',
      trace: [],
      createdAt: seq,
      updatedAt: seq,
    });
    await v4.put('threads', thread('t1'));
    await v4.put('threads', thread('t2'));
    for (let seq = 0; seq < 5; seq++) await v4.put('messages', message('t1', seq, `one ${seq}`));
    for (let seq = 0; seq < 3; seq++) await v4.put('messages', message('t2', seq, `two ${seq}`));
    await v4.put('messages', { id: 'bad', threadId: 't2', seq: 3, role: 'nobody' }); // Corrupt, stays corrupt.
    const compaction = {
      id: 'c1',
      threadId: 't1',
      method: 'client',
      firstKeptMessageId: 't1-m2',
      firstKeptSeq: 2,
      summary: 'Earlier talk.',
      tokensBefore: 10,
      tokensAfter: 2,
      createdAt: 3,
    };
    await v4.put('compactions', compaction);
    v4.close();

    const after = await openTestStorage({ factory, name: 'to-branches' });
    opened.push(after);
    const one = await after.storage.messages.list('t1');
    expect(texts(one.items)).toEqual(['one 0', 'one 1', 'one 2', 'one 3', 'one 4']);
    expect(one.items.map((m) => m.parentId)).toEqual([null, 't1-m0', 't1-m1', 't1-m2', 't1-m3']);
    expect(one.versions.size).toBe(0);
    const two = await after.storage.messages.list('t2');
    expect(texts(two.items)).toEqual(['two 0', 'two 1', 'two 2']);
    expect(two.items[0]!.parentId).toBeNull(); // Each thread starts its own chain.
    expect(two.skipped.map((e) => e.message).join()).toMatch(/bad/);
    expect(await after.db.get('messages', 'bad')).toMatchObject({ role: 'nobody' });
    expect(await after.db.get('threads', 't1')).toEqual(thread('t1'));
    expect((await after.storage.compactions.list('t1')).items).toEqual([compaction]);
    // The old thread goes on as before: a new message follows its last one.
    const next = await after.storage.messages.append('t1', say('user', 'one 5'));
    expect(next.parentId).toBe('t1-m4');
  });
});
