import { assertNever } from '../domain/errors';
import { BEARER_SLOT, headerSlot, type ServerConfig } from '../domain/server-config';

/** The vault as the registry needs it (the storage layer's vault fits). */
export interface SecretStore {
  get(ref: { profileId: string; owner: string; slot: string }): Promise<string | undefined>;
  clearOwner(profileId: string, owner: string): Promise<void>;
}

/** Secrets typed into a form but not saved yet, by vault slot; they take the place of stored ones. */
export type PendingSecrets = Readonly<Record<string, string>>;

/**
 * Request headers carrying a server's credentials, read from the vault at connect time. `secrets` is
 * undefined for a server that has nothing stored (one being tried out before it is added).
 */
export async function readServerHeaders(
  secrets: SecretStore | undefined,
  profileId: string,
  config: ServerConfig,
  pending: PendingSecrets = {},
): Promise<Record<string, string>> {
  const read = async (slot: string) =>
    Object.hasOwn(pending, slot) ? pending[slot] : secrets?.get({ profileId, owner: config.id, slot });
  const auth = config.auth;
  switch (auth.kind) {
    case 'bearer': {
      const token = await read(BEARER_SLOT);
      return token ? { Authorization: `Bearer ${token}` } : {};
    }
    case 'headers': {
      const entries = await Promise.all(
        auth.headerNames.map(async (name) => [name, await read(headerSlot(name))] as const),
      );
      return Object.fromEntries(entries.filter((entry): entry is readonly [string, string] => entry[1] !== undefined));
    }
    case 'none':
    case 'oauth':
      return {};
    default:
      return assertNever(auth);
  }
}
