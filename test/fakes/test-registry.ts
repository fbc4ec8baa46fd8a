import { createRegistry, type RegistryDeps } from '../../src/mcp/registry';
import { MemoryCatalogStore, MemorySecretStore, sha256Hex } from './memory-stores';

export const TEST_PROFILE = 'profile-1';

/** The real registry with in-memory stores and Node's fetch; `overrides` replace any dependency. */
export function createTestRegistry(overrides: Partial<RegistryDeps> = {}) {
  const secrets = new MemorySecretStore();
  const catalogs = new MemoryCatalogStore();
  const registry = createRegistry({
    profileId: TEST_PROFILE,
    appOrigin: 'http://127.0.0.1:5173',
    fetch: (input, init) => fetch(input, init),
    now: () => Date.now(),
    sha256Hex,
    secrets,
    catalogs,
    ...overrides,
  });
  return { registry, secrets, catalogs };
}
