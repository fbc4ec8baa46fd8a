import { BEARER_SLOT, headerSlot, type ServerConfig } from '../domain/server-config';

/** The vault as the registry needs it (the storage layer's vault fits). */
export interface SecretStore {
  get(ref: { profileId: string; owner: string; slot: string }): Promise<string | undefined>;
  clearOwner(profileId: string, owner: string): Promise<void>;
}

/** Request headers carrying a server's credentials, read from the vault at connect time. */
export async function readServerHeaders(secrets: SecretStore, profileId: string, config: ServerConfig): Promise<Record<string, string>> {
  const auth = config.auth;
  switch (auth.kind) {
    case 'bearer': {
      const token = await secrets.get({ profileId, owner: config.id, slot: BEARER_SLOT });
      return token ? { Authorization: `Bearer ${token}` } : {};
    }
    case 'headers': {
      const entries = await Promise.all(
        auth.headerNames.map(async (name) => [name, await secrets.get({ profileId, owner: config.id, slot: headerSlot(name) })] as const),
      );
      return Object.fromEntries(entries.filter((entry): entry is readonly [string, string] => entry[1] !== undefined));
    }
    case 'none':
    case 'oauth':
      return {};
  }
}
