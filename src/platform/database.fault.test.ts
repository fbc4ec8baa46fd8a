import { IDBFactory } from 'fake-indexeddb';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { StorageUnavailableError } from '../domain/errors';
import { openAppDatabase } from './database';
import { CURRENT_DB_VERSION } from './database-migrations';

describe('openAppDatabase', () => {
  it('upgrades a version-1 database and keeps every record, backfilling new thread fields', async () => {
    const factory = new IDBFactory();
    const v1 = await openAppDatabase(factory, { name: 'migrate', version: 1 });
    const thread = {
      id: 't1',
      profileId: 'p1',
      title: 'Old thread',
      createdAt: 1,
      updatedAt: 2,
      enabledServerIds: ['s1'],
    };
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
    const profile = {
      id: 'p1',
      name: 'Me',
      createdAt: 1,
      defaultServerIds: ['s1'],
      preferences: { theme: 'dark', toolSearch: {} },
    };
    const server = { profileId: 'p1', id: 's1', name: 'S', url: 'https://s.example/mcp' };
    await v1.put('profiles', profile);
    await v1.put('servers', server);
    await v1.put('threads', thread);
    await v1.put('messages', message);
    await v1.put('meta', { key: 'activeProfileId', value: 'p1' });
    expect([...v1.objectStoreNames]).not.toContain('credentials');
    v1.close();

    const current = await openAppDatabase(factory, { name: 'migrate' });
    expect(current.version).toBe(CURRENT_DB_VERSION);
    expect([...current.objectStoreNames].sort()).toEqual([
      'appConfig',
      'attachments',
      'catalog',
      'compactions',
      'credentials',
      'messages',
      'meta',
      'profiles',
      'servers',
      'threads',
      'vaultKeys',
    ]);
    expect(await current.get('profiles', 'p1')).toEqual(profile);
    expect(await current.get('servers', ['p1', 's1'])).toEqual(server);
    // The branches step (issue #22) names whom each message follows: the thread's first follows none.
    expect(await current.get('messages', 'm1')).toEqual({ ...message, parentId: null });
    expect(await current.get('meta', 'activeProfileId')).toEqual({ key: 'activeProfileId', value: 'p1' });
    expect(await current.get('threads', 't1')).toEqual({ ...thread, loadedTools: [], pinnedTools: [] });
    expect(
      await current.getAllFromIndex('threads', 'byProfileUpdated', IDBKeyRange.bound(['p1', 0], ['p1', Infinity])),
    ).toHaveLength(1);
    current.close();
  });

  it('closes its connection when another tab opens a newer version, instead of blocking it', async () => {
    const factory = new IDBFactory();
    const reported: StorageUnavailableError[] = [];
    const ours = await openAppDatabase(factory, { name: 'tabs', onVersionChange: (error) => reported.push(error) });
    // idb's openDB uses the global factory; fake-indexeddb's factories share one backing store, like tabs do.
    const newer = await openDB('tabs', CURRENT_DB_VERSION + 1);
    expect(newer.version).toBe(CURRENT_DB_VERSION + 1);
    expect(reported.map((e) => e.reason)).toEqual(['version-change']);
    expect(reported[0]?.message).toContain('Reload');
    await expect(ours.get('meta', 'x')).rejects.toThrow();
    newer.close();
  });

  it('explains a database left by a newer version of the app', async () => {
    const factory = new IDBFactory();
    (await openDB('future', CURRENT_DB_VERSION + 5, { upgrade: () => undefined })).close();
    const error = await openAppDatabase(factory, { name: 'future' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect((error as Error).message).toContain('newer version of the app');
  });
});
