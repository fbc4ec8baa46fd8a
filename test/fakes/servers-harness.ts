// The servers store and its actions over real storage (fake-indexeddb, real vault) and the real registry, with MCP
// test servers on 127.0.0.1: one setup for the server-actions tests.
import type { RegistryDeps } from '../../src/mcp/registry';
import { startTestMcpServer } from '../fixtures/test-mcp-server';
import {
  EMPTY_SERVER_FORM,
  bindServerActions,
  createServersStore,
  type ServerForm,
} from '../../src/stores/servers-store';
import type { CleanupStep } from './cleanup';
import { createStorageRegistry, openTestProfile } from './test-app';
import { openTestStorage } from './test-storage';

/** A header the header-auth tests send, and the value the test server wants. */
export const KEY = { name: 'X-Api-Key', value: 'sesame' };

/** The add form of a server that authenticates with KEY's header. */
export const headerForm = (name: string, url: string, value = KEY.value): ServerForm => ({
  ...EMPTY_SERVER_FORM,
  name,
  url,
  auth: 'headers',
  headers: [{ name: KEY.name, value }],
});

/** `mcpServer` starts a test MCP server, `setup` the store and actions; both are undone by `cleanup`. */
export function serversHarness(cleanup: (...steps: CleanupStep[]) => void) {
  async function mcpServer(options?: Parameters<typeof startTestMcpServer>[0]) {
    const server = await startTestMcpServer(options);
    cleanup(() => server.stop());
    return server;
  }

  /** `registryOverrides` replace registry dependencies (e.g. its fetch). */
  async function setup(registryOverrides: Partial<RegistryDeps> = {}) {
    const opened = await openTestStorage();
    const { storage } = opened;
    const profile = await openTestProfile(storage);
    const registry = createStorageRegistry(storage, profile.id, registryOverrides);
    const store = createServersStore(registry);
    cleanup(
      () => opened.close(),
      () => registry.close(),
      () => store.dispose(),
    );
    const actions = bindServerActions(store, { registry, storage, profileId: profile.id });
    const view = (name: string) => store.getState().servers.find((s) => s.name === name);
    const vaultValue = (owner: string, slot: string) => storage.vault.get({ profileId: profile.id, owner, slot });
    const stored = async () => (await storage.profiles.listServers(profile.id)).items;
    return { storage, db: opened.db, profile, registry, store, actions, view, vaultValue, stored };
  }
  return { mcpServer, setup };
}
