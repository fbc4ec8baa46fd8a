import { afterEach, describe, expect, it } from 'vitest';
import type { Change } from '../../../src/platform/change-bus';
import { openTestStorage, type TestStorage } from '../../fakes/test-storage';

let tabs: TestStorage[] = [];
afterEach(() => {
  tabs.forEach((t) => t.close());
  tabs = [];
});

/** Two "tabs": separate connections to one database, linked by a real BroadcastChannel. */
async function openTwoTabs(name: string) {
  const first = await openTestStorage({ name, channelName: name });
  const second = await openTestStorage({ name, channelName: name, factory: first.factory });
  tabs.push(first, second);
  return [first, second] as const;
}

function nextChange(tab: TestStorage, predicate: (c: Change) => boolean): Promise<Change> {
  return new Promise((resolve) => {
    const off = tab.bus.subscribe((change) => {
      if (predicate(change)) {
        off();
        resolve(change);
      }
    });
  });
}

describe('two tabs on one database', () => {
  it('announces a write in one tab to the other, which then reads it', async () => {
    const [a, b] = await openTwoTabs('announce');
    const profile = await a.storage.profiles.ensureActive();
    const heard = nextChange(b, (c) => c.store === 'threads' && c.isRemote === true);
    const thread = await a.storage.threads.create(profile.id, { title: 'From tab A' });
    expect(await heard).toMatchObject({ store: 'threads', profileId: profile.id, threadId: thread.id, isRemote: true });
    expect((await b.storage.threads.list(profile.id)).items.map((t) => t.title)).toEqual(['From tab A']);
  });

  it('loses no write when both tabs edit the same thread and server list at once', async () => {
    const [a, b] = await openTwoTabs('concurrent');
    const profile = await a.storage.profiles.ensureActive();
    const thread = await a.storage.threads.create(profile.id);
    await Promise.all([
      a.storage.threads.update(thread.id, (t) => ({ enabledServerIds: [...t.enabledServerIds, 'from-a'] })),
      b.storage.threads.update(thread.id, (t) => ({ enabledServerIds: [...t.enabledServerIds, 'from-b'] })),
      a.storage.threads.rename(thread.id, 'Renamed in A'),
      a.storage.profiles.saveServer(profile.id, { id: 'one', name: 'One', url: 'https://one.example/mcp' }),
      b.storage.profiles.saveServer(profile.id, { id: 'two', name: 'Two', url: 'https://two.example/mcp' }),
    ]);
    const [fromA, fromB] = [await a.storage.threads.get(thread.id), await b.storage.threads.get(thread.id)];
    expect(fromA).toEqual(fromB);
    expect(fromA?.title).toBe('Renamed in A');
    expect([...(fromA?.enabledServerIds ?? [])].sort()).toEqual(['from-a', 'from-b']);
    expect((await b.storage.profiles.listServers(profile.id)).items.map((s) => s.id).sort()).toEqual(['one', 'two']);
  });
});
