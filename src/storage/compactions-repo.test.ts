import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { openTestStorage } from '../../test/fakes/test-storage';
import { openAppDatabase } from '../platform/database';

const thread = { id: 't1', profileId: 'p1', title: 'Long', createdAt: 1, updatedAt: 2, enabledServerIds: [] };
const message = {
  id: 'm1',
  threadId: 't1',
  seq: 0,
  role: 'user',
  blocks: [{ type: 'text', text: 'hello' }],
  status: 'complete',
  createdAt: 1,
  updatedAt: 1,
};

describe('compactions store (issue #17)', () => {
  it('a version-3 database gains the compactions store and keeps its threads and messages', async () => {
    const factory = new IDBFactory();
    const v3 = await openAppDatabase(factory, { name: 'to-v4', version: 3 });
    expect([...v3.objectStoreNames]).not.toContain('compactions');
    await v3.put('threads', { ...thread, loadedTools: [], pinnedTools: [] });
    await v3.put('messages', message);
    v3.close();

    const opened = await openTestStorage({ factory, name: 'to-v4' });
    const { storage } = opened;
    expect((await storage.messages.list('t1')).items.map((m) => m.id)).toEqual(['m1']);
    expect((await storage.compactions.list('t1')).items).toEqual([]);
    const record = await storage.compactions.add('t1', {
      method: 'client',
      firstKeptMessageId: 'm1',
      firstKeptSeq: 0,
      summary: 'What happened so far',
      tokensBefore: 160_000,
      tokensAfter: 9_000,
    });
    expect((await storage.compactions.list('t1')).items).toEqual([record]);
    // Deleting the thread takes its compactions along.
    await storage.threads.delete('t1');
    expect((await storage.compactions.list('t1')).items).toEqual([]);
    opened.close();
  });

  it('reports a corrupt compaction record instead of failing the thread', async () => {
    const opened = await openTestStorage();
    const { storage, db } = opened;
    await db.put('compactions', { id: 'bad', threadId: 't1', createdAt: 5, method: 'magic' });
    const loaded = await storage.compactions.list('t1');
    expect(loaded.items).toEqual([]);
    expect(loaded.skipped.map((e) => e.message).join(' ')).toContain('bad');
    opened.close();
  });
});
