import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test/fakes/cleanup';
import { createStorageRegistry } from '../../test/fakes/test-app';
import { openTestStorage } from '../../test/fakes/test-storage';
import { typingSlices } from '../../test/fakes/typing-slices';
import { startTestMcpServer } from '../../test/fixtures/test-mcp-server';
import { BEARER_SLOT } from '../domain/server-config';
import type { AppServerToolOverrides } from '../domain/tool-overrides';
import { followServerChanges, type ServerSyncDeps } from './server-sync';

const cleanup = cleanupAfterEach();

/** Two tabs on one database, linked by a real BroadcastChannel; the second follows the first's server changes. */
async function twoTabs(pauses?: ServerSyncDeps['pauses']) {
  const name = `server-sync-${crypto.randomUUID()}`;
  const tabA = await openTestStorage({ name, channelName: name });
  const tabB = await openTestStorage({ name, channelName: name, factory: tabA.factory });
  const profile = await tabA.storage.profiles.ensureActive();
  const registryB = createStorageRegistry(tabB.storage, profile.id);
  const stop = followServerChanges({
    storage: tabB.storage,
    registry: registryB,
    profileId: profile.id,
    ...(pauses ? { pauses } : {}),
  });
  cleanup(
    () => tabA.close(),
    () => tabB.close(),
    () => registryB.close(),
    stop,
  );
  return { tabA, tabB, registryB, profileId: profile.id, follow: stop };
}

describe("following another tab's server changes", () => {
  it("takes another tab's new server in only when this page is idle (the person paused typing), then lists it", async () => {
    const typing = typingSlices();
    const { tabA, registryB, profileId } = await twoTabs(typing.slices);
    await tabA.storage.profiles.saveServer(profileId, {
      id: 'theirs',
      name: 'Theirs',
      url: 'https://theirs.example/mcp',
    });
    await expect.poll(() => typing.waiting).toBe(1);
    expect(registryB.get('theirs')).toBeUndefined(); // Stored over there; this page is busy with the person's typing.
    typing.stop();
    await expect.poll(() => registryB.get('theirs')?.config.name).toBe('Theirs');

    // A change to a server this page has is not held back: a turn must not use what the other tab changed.
    typing.start();
    await tabA.storage.profiles.saveServer(profileId, {
      id: 'theirs',
      name: 'Renamed',
      url: 'https://theirs.example/mcp',
    });
    await expect.poll(() => registryB.get('theirs')?.config.name).toBe('Renamed');
    await tabA.storage.profiles.removeServer(profileId, 'theirs');
    await expect.poll(() => registryB.get('theirs')).toBeUndefined();
    expect(typing.waiting).toBe(0);
  });

  it("takes a new server's stored tools in only in the pause too; changes to the others do not wait behind it", async () => {
    const typing = typingSlices();
    const { tabA, registryB, profileId } = await twoTabs(typing.slices);
    typing.stop();
    await tabA.storage.profiles.saveServer(profileId, { id: 'mine', name: 'Mine', url: 'https://m.example/mcp' });
    await expect.poll(() => registryB.get('mine')?.config.name).toBe('Mine');
    typing.start();
    await tabA.storage.catalog.set({
      profileId,
      serverId: 'theirs',
      hash: 'hash-theirs',
      fetchedAt: 1,
      tools: Array.from({ length: 200 }, (_, i) => ({ name: `tool_${i}`, inputSchema: { type: 'object' as const } })),
    });
    await tabA.storage.profiles.saveServer(profileId, { id: 'theirs', name: 'Theirs', url: 'https://t.example/mcp' });
    await expect.poll(() => typing.waiting).toBe(1);
    // Pauses long enough to begin, and to read the stored tools, but typing again before they are all checked.
    typing.letOneThrough();
    await expect.poll(() => typing.waiting).toBe(1);
    typing.letOneThrough();
    await expect.poll(() => typing.waiting).toBe(1);
    // Not listed without its tools, and the stored tools wait for the next pause.
    expect(registryB.get('theirs')).toBeUndefined();
    expect(registryB.tools(['theirs'])).toEqual([]);
    // Meanwhile a change to a server this page has applies at once, still typing.
    await tabA.storage.profiles.saveServer(profileId, { id: 'mine', name: 'Renamed', url: 'https://m.example/mcp' });
    await expect.poll(() => registryB.get('mine')?.config.name).toBe('Renamed');
    expect(registryB.get('theirs')).toBeUndefined();
    typing.stop();
    await expect.poll(() => registryB.tools(['theirs']).length).toBe(200);
  });

  it('a server removed in the other tab while it waits to be taken in is not taken in', async () => {
    const typing = typingSlices();
    const { tabA, registryB, profileId, follow } = await twoTabs(typing.slices);
    await tabA.storage.profiles.saveServer(profileId, { id: 'brief', name: 'Brief', url: 'https://b.example/mcp' });
    await expect.poll(() => typing.waiting).toBe(1);
    await tabA.storage.profiles.removeServer(profileId, 'brief');
    await follow.settled();
    expect(registryB.get('brief')).toBeUndefined();
  });

  it("a turn does not wait for the pause: settled() hurries another tab's new server in", async () => {
    // The person types without a pause: only a hurry lets a held server in.
    const typing = typingSlices();
    const { tabA, registryB, profileId, follow } = await twoTabs(typing.slices);
    await tabA.storage.profiles.saveServer(profileId, { id: 'new', name: 'New', url: 'https://new.example/mcp' });
    await expect.poll(() => typing.waiting).toBe(1);
    await follow.settled();
    expect(registryB.get('new')?.config.name).toBe('New');
  });

  it('leaves alone a server this tab is adding (registered, not stored yet) when another tab changes a different one', async () => {
    const { tabA, tabB, registryB, profileId } = await twoTabs();
    // Tab B's add is under way: the registry has the server, its record and token are written next.
    await registryB.register(
      { id: 'mine', name: 'Mine', url: 'https://mine.example/mcp', auth: { kind: 'bearer' } },
      'user',
    );
    await tabA.storage.profiles.saveServer(profileId, {
      id: 'theirs',
      name: 'Theirs',
      url: 'https://theirs.example/mcp',
    });
    await expect.poll(() => registryB.get('theirs')?.config.name).toBe('Theirs');
    await tabB.storage.profiles.saveServer(profileId, {
      id: 'mine',
      name: 'Mine',
      url: 'https://mine.example/mcp',
      auth: { kind: 'bearer' },
    });
    await tabB.storage.vault.put({ profileId, owner: 'mine', slot: BEARER_SLOT }, 'token-of-mine');
    expect(
      registryB
        .list()
        .map((s) => s.config.id)
        .sort(),
    ).toEqual(['mine', 'theirs']);
    expect(await tabB.storage.vault.get({ profileId, owner: 'mine', slot: BEARER_SLOT })).toBe('token-of-mine');
  });

  it('takes the tool switches another tab set for an app server, off and on again, and follows its own write too', async () => {
    const { tabA, tabB, registryB, profileId } = await twoTabs();
    const mcp = await startTestMcpServer();
    cleanup(() => mcp.stop());
    await registryB.register({ id: 'company', name: 'Company', url: mcp.url }, 'app');
    await registryB.connect('company');
    const offeredInB = () => registryB.tools(['company']).map((t) => t.toolName);
    const setInA = (overrides: AppServerToolOverrides) =>
      tabA.storage.profiles.update(profileId, (p) => ({ ...p, appServerToolOverrides: overrides }));

    await setInA({ company: { add: { enabled: false } } });
    await expect.poll(offeredInB).not.toContain('add');
    expect((await registryB.callTool('company', 'add', { a: 1, b: 2 })).failure?.kind).toBe('tool-disabled');
    await setInA({});
    await expect.poll(offeredInB).toContain('add');
    // Tab B's own write (as the servers manager makes it) is followed too.
    await tabB.storage.profiles.update(profileId, (p) => ({
      ...p,
      appServerToolOverrides: { company: { slow: { enabled: false } } },
    }));
    await expect.poll(offeredInB).not.toContain('slow');
  });

  it('forgets a server another tab removed, and takes its changes', async () => {
    const { tabA, registryB, profileId } = await twoTabs();
    await tabA.storage.profiles.saveServer(profileId, { id: 'north', name: 'North', url: 'https://north.example/mcp' });
    await expect.poll(() => registryB.get('north')?.config.url).toBe('https://north.example/mcp');
    await tabA.storage.profiles.saveServer(profileId, {
      id: 'north',
      name: 'North (EU)',
      url: 'https://eu.north.example/mcp',
    });
    await expect.poll(() => registryB.get('north')?.config.name).toBe('North (EU)');
    await tabA.storage.profiles.removeServer(profileId, 'north');
    await expect.poll(() => registryB.get('north')).toBeUndefined();
  });
});
