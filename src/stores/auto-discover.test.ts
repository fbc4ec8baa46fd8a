// discovery.autoDiscover (issue #24 item 1): the deployer's registry (the registry fixture on 127.0.0.1, speaking the
// documented API with cursor paging) lists servers; those reachable without a secret are added once, marked as from
// the directory, connected with their tools; a server the person removes never comes back.
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test/fakes/cleanup';
import { createStorageRegistry, openTestProfile, testAppServices } from '../../test/fakes/test-app';
import { openTestStorage } from '../../test/fakes/test-storage';
import { remoteEntry, startRegistryFixture } from '../../test/fixtures/registry-server';
import { startTestMcpServer } from '../../test/fixtures/test-mcp-server';
import { createServerDirectory } from '../mcp/server-directory';
import { AppConfig } from '../domain/app-config';
import { createAppStore } from './app-store';
import { autoDiscoverServers } from './auto-discover';
import { startApp } from './start-app';
import { addServer } from './server-edit';
import { EMPTY_SERVER_FORM } from './server-form';

const cleanup = cleanupAfterEach();

async function setup() {
  const [weather, notes, mine] = await Promise.all([
    startTestMcpServer({ toolCount: 2 }),
    startTestMcpServer({ toolCount: 1 }),
    startTestMcpServer({ toolCount: 1 }),
  ]);
  cleanup(
    () => weather.stop(),
    () => notes.stop(),
    () => mine.stop(),
  );
  const registryFixture = await startRegistryFixture({
    maxLimit: 2, // Three pages: the app follows the cursor.
    servers: [
      remoteEntry('io.example/weather', weather.url, { title: 'Weather' }),
      remoteEntry('io.example/keyed', 'https://keyed.example.test/mcp', {
        remotes: [
          {
            type: 'streamable-http',
            url: 'https://keyed.example.test/mcp',
            headers: [{ name: 'X-Api-Key', isRequired: true, isSecret: true }],
          },
        ],
      }),
      { name: 'io.example/local-only', version: '1.0.0', packages: [{ registryType: 'npm', identifier: 'local' }] },
      remoteEntry('io.example/notes', notes.url, { title: 'Notes' }),
      remoteEntry('io.example/mine', mine.url, { title: 'Mine again' }),
    ],
  });
  cleanup(() => registryFixture.stop());
  const opened = await openTestStorage();
  cleanup(() => opened.close());
  const { storage } = opened;
  const profile = await openTestProfile(storage);
  const registry = createStorageRegistry(storage, profile.id);
  cleanup(() => registry.close());
  const deps = {
    registry,
    storage,
    profileId: profile.id,
    directory: createServerDirectory({ fetch: (input, init) => fetch(input, init), endpoint: registryFixture.url }),
    connect: async (id: string) => void (await registry.connect(id)),
  };
  // The person already added this one by hand.
  expect(await addServer(deps, { ...EMPTY_SERVER_FORM, name: 'Mine', url: mine.url }, deps.connect)).toBeUndefined();
  return { deps, storage, registry, profileId: profile.id, registryFixture };
}

const signal = () => new AbortController().signal;

describe('autoDiscover', () => {
  it('adds the registry servers that need no secret, once, marked and connected; the rest are left with why', async () => {
    const { deps, storage, registry, profileId, registryFixture } = await setup();
    const report = await autoDiscoverServers(deps, signal());
    expect(report.added).toEqual(['io.example/weather', 'io.example/notes']);
    expect(report.left).toEqual([
      { name: 'io.example/keyed', reason: 'it asks for a header or secret: add it from Find servers' },
      { name: 'io.example/local-only', reason: 'it needs a local process, which a browser cannot start' },
    ]);
    expect(registryFixture.queries.map((q) => q.get('cursor') !== null)).toEqual([false, true, true]);

    const stored = (await storage.profiles.listServers(profileId)).items;
    expect(new Map(stored.map((s) => [s.name, s.fromDirectory]))).toEqual(
      new Map([
        ['Mine', undefined],
        ['Weather', 'io.example/weather'],
        ['Notes', 'io.example/notes'],
      ]),
    );
    const weather = registry.list().find((s) => s.config.name === 'Weather')!;
    expect(weather.state.status).toBe('connected');
    const tools = registry.tools([weather.config.id]);
    expect(tools.length).toBeGreaterThan(0); // Its tools are there for a thread that switches it on.
    expect(tools.every((t) => t.serverId === weather.config.id)).toBe(true);

    // A second start adds nothing again.
    expect((await autoDiscoverServers(deps, signal())).added).toEqual([]);
    expect((await storage.profiles.listServers(profileId)).items).toHaveLength(3);
  });

  it('a server the person removed is never added again', async () => {
    const { deps, storage, registry, profileId } = await setup();
    await autoDiscoverServers(deps, signal());
    const weather = registry.list().find((s) => s.config.name === 'Weather')!.config.id;
    await registry.unregister(weather);
    await storage.profiles.removeServer(profileId, weather);

    expect((await autoDiscoverServers(deps, signal())).added).toEqual([]);
    expect((await storage.profiles.listServers(profileId)).items.map((s) => s.name).sort()).toEqual(['Mine', 'Notes']);
  });

  it('runs at start when the app config says autoDiscover: the servers list shows the added server, marked', async () => {
    const weather = await startTestMcpServer({ toolCount: 1 });
    cleanup(() => weather.stop());
    const listing = await startRegistryFixture({
      servers: [remoteEntry('io.example/weather', weather.url, { title: 'Weather' })],
    });
    cleanup(() => listing.stop());
    const opened = await openTestStorage();
    cleanup(() => opened.close());
    const config = AppConfig.parse({ discovery: { enabled: true, endpoint: listing.url, autoDiscover: true } });
    const services = testAppServices(opened.storage, {
      loadAppConfig: () => Promise.resolve({ config, source: 'file' }),
      createDirectory: (endpoint) => createServerDirectory({ fetch: (input, init) => fetch(input, init), endpoint }),
    });
    const store = createAppStore();
    await startApp(store, () => Promise.resolve(services));
    cleanup(() => store.getState().registry?.close());
    const servers = store.getState().servers!;
    await new Promise<void>((resolve) => {
      const check = () => servers.getState().servers.some((s) => s.name === 'Weather') && resolve();
      servers.subscribe(check);
      check();
    });
    const added = servers.getState().servers.find((s) => s.name === 'Weather')!;
    expect(added).toMatchObject({ scope: 'user', config: { fromDirectory: 'io.example/weather' } });
  });
});
