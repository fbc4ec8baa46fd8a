// Approvals stored before they named their server's origin (database version 2, the format of the release before)
// are dropped by the upgrade, and the person is told which, once.
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../../src/stores/app-store';
import { startApp } from '../../../src/stores/start-app';
import { cleanupAfterEach } from '../../fakes/cleanup';
import { testAppServices } from '../../fakes/test-app';
import { openTestStorage } from '../../fakes/test-storage';

const cleanup = cleanupAfterEach();

/** A version-2 database as the previous release wrote it: approvals are bare definition hashes. */
async function writeVersion2(factory: IDBFactory, name: string): Promise<void> {
  const old = await openTestStorage({ factory, name, version: 2 });
  await old.db.put('profiles', {
    id: 'p1',
    name: 'Me',
    createdAt: 1,
    defaultServerIds: ['files'],
    preferences: { theme: 'system', toolSearch: {} },
    alwaysAllow: { 'files/delete_file': 'hash-1' },
    appServerToolOverrides: {},
  });
  await old.db.put('profiles', { id: 'p2', name: 'Other', createdAt: 2, alwaysAllow: { 'notes/write': 'hash-2' } });
  await old.db.put('meta', { key: 'activeProfileId', value: 'p1' });
  await old.db.put('servers', { profileId: 'p1', id: 'files', name: 'Files', url: 'https://files.example/mcp' });
  await old.db.put('threads', {
    id: 't1',
    profileId: 'p1',
    title: 'Clean up',
    createdAt: 1,
    updatedAt: 2,
    enabledServerIds: ['files'],
    loadedTools: [],
    pinnedTools: [],
    approvals: { 'files/move_file': 'hash-3' },
  });
  old.close();
}

async function start(factory: IDBFactory, name: string) {
  const opened = await openTestStorage({ factory, name });
  const store = createAppStore();
  const services = testAppServices(opened.storage);
  await startApp(store, () => Promise.resolve(services));
  cleanup(
    () => opened.close(),
    () => store.getState().registry?.close(),
  );
  return { opened, state: store.getState() };
}

describe('upgrading approvals stored without an origin', () => {
  it('drops them, keeps everything else, and names them in a notice shown once per profile', async () => {
    const factory = new IDBFactory();
    await writeVersion2(factory, 'upgrade');

    const first = await start(factory, 'upgrade');
    expect(first.state.phase).toBe('ready');
    expect(first.state.droppedApprovals).toEqual([
      { profileId: 'p1', key: 'files/delete_file', place: 'Always allowed' },
      { profileId: 'p1', key: 'files/move_file', place: 'Allowed in thread "Clean up"' },
    ]);
    const { storage } = first.opened;
    expect(await storage.profiles.get('p1')).toMatchObject({ alwaysAllow: {}, defaultServerIds: ['files'] });
    expect(await storage.threads.get('t1')).toMatchObject({
      approvals: {},
      enabledServerIds: ['files'],
      title: 'Clean up',
    });
    expect((await storage.profiles.listServers('p1')).items.map((s) => s.id)).toEqual(['files']);
    expect(first.state.chat?.getState().threads.map((t) => t.id)).toEqual(['t1']);
    first.opened.close();

    // The next start of the same profile says nothing more; the other profile still gets its own notice.
    const again = await start(factory, 'upgrade');
    expect(again.state.droppedApprovals).toEqual([]);
    await again.opened.storage.profiles.setActiveId('p2');
    again.opened.close();
    const other = await start(factory, 'upgrade');
    expect(other.state.droppedApprovals).toEqual([{ profileId: 'p2', key: 'notes/write', place: 'Always allowed' }]);
  });
});
