import { createRegistry, type RegistryDeps, type RegistryOAuth } from '../../src/mcp/registry';
import { createLocalLocks } from '../../src/platform/locks';
import { MemoryCatalogStore, MemorySecretStore, sha256Hex } from './memory-stores';

export const TEST_PROFILE = 'profile-1';

/** OAuth settings for tests; the vault is the registry's in-memory one. */
export type TestOAuth = Omit<RegistryOAuth, 'secrets' | 'locks' | 'newState'> &
  Partial<Pick<RegistryOAuth, 'locks' | 'newState'>>;

/** The real registry with in-memory stores and Node's fetch; `overrides` replace any dependency. */
export function createTestRegistry(
  overrides: Partial<Omit<RegistryDeps, 'oauth' | 'secrets'>> & { oauth?: TestOAuth; secrets?: MemorySecretStore } = {},
) {
  const { oauth, secrets = new MemorySecretStore(), ...rest } = overrides;
  const catalogs = new MemoryCatalogStore();
  const registry = createRegistry({
    profileId: TEST_PROFILE,
    appOrigin: 'http://127.0.0.1:5173',
    fetch: (input, init) => fetch(input, init),
    now: () => Date.now(),
    sha256Hex,
    secrets,
    catalogs,
    ...rest,
    ...(oauth ? { oauth: { locks: createLocalLocks(), newState: () => crypto.randomUUID(), ...oauth, secrets } } : {}),
  });
  return { registry, secrets, catalogs };
}
