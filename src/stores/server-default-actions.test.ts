// Removing a server, and the servers new threads start with, through the servers store's actions.
import { describe, expect, it, vi } from 'vitest';
import { cleanupAfterEach } from '../../test/fakes/cleanup';
import { failObjectStore } from '../../test/fakes/idb-faults';
import { headerForm, KEY, serversHarness } from '../../test/fakes/servers-harness';
import { bindServerActions, createServersStore, EMPTY_SERVER_FORM } from './servers-store';

const cleanup = cleanupAfterEach();
const { mcpServer, setup } = serversHarness(cleanup);

describe('removing a server', () => {
  it('removes it with its secrets and stored settings', async () => {
    const server = await mcpServer({ requireHeader: KEY });
    const { actions, registry, stored, db } = await setup();
    await actions.add(headerForm('Keyed', server.url));
    await actions.remove('keyed');
    expect(registry.list()).toEqual([]);
    expect(await stored()).toEqual([]);
    expect(await db.count('credentials')).toBe(0);
  });
});

describe('the servers new threads start with', () => {
  it("puts a server in the profile's default set and takes it out again; removing the server drops it", async () => {
    const server = await mcpServer();
    const { actions, store, storage, profile, view } = await setup();
    await actions.add({ ...EMPTY_SERVER_FORM, name: 'Calc', url: server.url });
    const id = view('Calc')!.id;
    await actions.setDefault(id, true);
    expect(store.getState().defaultIds).toEqual([id]);
    expect((await storage.profiles.get(profile.id))?.defaultServerIds).toEqual([id]);
    const thread = await storage.threads.create(profile.id, {
      enabledServerIds: (await storage.profiles.get(profile.id))!.defaultServerIds,
    });
    expect(thread.enabledServerIds).toEqual([id]);
    await actions.setDefault(id, false);
    expect((await storage.profiles.get(profile.id))?.defaultServerIds).toEqual([]);
    await actions.setDefault(id, true);
    await actions.remove(id);
    expect(store.getState().defaultIds).toEqual([]);
    expect((await storage.profiles.get(profile.id))?.defaultServerIds).toEqual([]);
  });

  it('the first server added is on in new threads (and in an open thread with none on), and says so; the next is not', async () => {
    const [calc, notes] = await Promise.all([mcpServer(), mcpServer()]);
    const { registry, storage, profile } = await setup();
    const store = createServersStore(registry);
    cleanup(() => store.dispose());
    const view = (name: string) => store.getState().servers.find((s) => s.name === name);
    const open = await storage.threads.create(profile.id, { enabledServerIds: [] });
    // The open thread, as the chat holds it: its own servers, switched through storage.
    const enableInOpenThread = async (serverId: string) => {
      const thread = await storage.threads.get(open.id);
      if (!thread || thread.enabledServerIds.length > 0) return false;
      await storage.threads.update(open.id, (t) => ({ ...t, enabledServerIds: [serverId] }));
      return true;
    };
    const actions = bindServerActions(store, { registry, storage, profileId: profile.id, enableInOpenThread });
    expect(await actions.add({ ...EMPTY_SERVER_FORM, name: 'Calc', url: calc.url })).toBeUndefined();
    expect(store.getState().defaultIds).toEqual(['calc']);
    expect((await storage.profiles.get(profile.id))?.defaultServerIds).toEqual(['calc']);
    expect((await storage.threads.get(open.id))?.enabledServerIds).toEqual(['calc']);
    expect(view('Calc')?.status).toBe('connected');
    expect(store.getState().notices.calc).toEqual({
      tone: 'info',
      text: 'Added. As your first server it is on in new threads and in the open thread.',
    });
    // A second server leaves the person's choice alone: not on in new threads, not in the thread, nothing said.
    expect(await actions.add({ ...EMPTY_SERVER_FORM, name: 'Notes', url: notes.url })).toBeUndefined();
    expect((await storage.profiles.get(profile.id))?.defaultServerIds).toEqual(['calc']);
    expect((await storage.threads.get(open.id))?.enabledServerIds).toEqual(['calc']);
    expect(store.getState().notices.notes).toBeUndefined();
  });

  it('a default switch that cannot be stored moves back and says why', async () => {
    const server = await mcpServer();
    const { actions, store, storage, profile } = await setup();
    await actions.add({ ...EMPTY_SERVER_FORM, name: 'Calc', url: server.url });
    await actions.setDefault('calc', false); // On as the first server added; off, to try switching it on.
    const restore = failObjectStore(
      'profiles',
      'put',
      new DOMException('The quota has been exceeded.', 'QuotaExceededError'),
    );
    cleanup(restore);
    const pending = actions.setDefault('calc', true);
    expect(store.getState().defaultIds).toEqual(['calc']);
    await pending;
    restore();
    expect(store.getState().defaultIds).toEqual([]);
    expect(store.getState().notices.calc?.text).toMatch(/^Browser storage is full/);
    expect((await storage.profiles.get(profile.id))?.defaultServerIds).toEqual([]);
  });

  it('shows the stored default set when the manager opens', async () => {
    const server = await mcpServer();
    const first = await setup();
    await first.actions.add({ ...EMPTY_SERVER_FORM, name: 'Calc', url: server.url });
    await first.actions.setDefault('calc', true);
    const store = createServersStore(first.registry);
    cleanup(() => store.dispose());
    bindServerActions(store, { registry: first.registry, storage: first.storage, profileId: first.profile.id });
    await vi.waitFor(() => expect(store.getState().defaultIds).toEqual(['calc']), { timeout: 15_000 });
  });
});

describe('the order of the servers', () => {
  it("is by name, the deployer's first, whatever the order they came in, so a reload or another tab shows the same list", async () => {
    const [a, b, c, d] = await Promise.all([mcpServer(), mcpServer(), mcpServer(), mcpServer()]);
    const { actions, store, registry } = await setup();
    await registry.register({ id: 'zeta', name: 'Zeta', url: d.url }, 'app');
    for (const [name, server] of [
      ['Weather', a],
      ['calc', b],
      ['Atlas', c],
    ] as const) {
      expect(await actions.add({ ...EMPTY_SERVER_FORM, name, url: server.url })).toBeUndefined();
    }
    expect(store.getState().servers.map((s) => s.name)).toEqual(['Zeta', 'Atlas', 'calc', 'Weather']);
  });
});
