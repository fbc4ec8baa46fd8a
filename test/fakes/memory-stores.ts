import type { ToolCatalog } from '../../src/domain/tool-catalog';
import type { CatalogStore } from '../../src/mcp/catalog';
import type { WritableSecretStore } from '../../src/mcp/oauth-provider';

type Ref = { profileId: string; owner: string; slot: string };

/** In-memory vault with the same interface the registry uses (no encryption: tests and the conformance harness only). */
export class MemorySecretStore implements WritableSecretStore {
  readonly values = new Map<string, string>();
  private key = (ref: Ref) => `${ref.profileId}\u0000${ref.owner}\u0000${ref.slot}`;
  async get(ref: Ref) {
    return this.values.get(this.key(ref));
  }
  async put(ref: Ref, value: string) {
    this.values.set(this.key(ref), value);
  }
  async delete(ref: Ref) {
    this.values.delete(this.key(ref));
  }
  async clearOwner(profileId: string, owner: string) {
    for (const key of [...this.values.keys()])
      if (key.startsWith(`${profileId}\u0000${owner}\u0000`)) this.values.delete(key);
  }
}

/** In-memory tool catalog store. */
export class MemoryCatalogStore implements CatalogStore {
  readonly catalogs = new Map<string, ToolCatalog>();
  async get(profileId: string, serverId: string) {
    return this.catalogs.get(`${profileId}/${serverId}`);
  }
  async set(catalog: ToolCatalog) {
    this.catalogs.set(`${catalog.profileId}/${catalog.serverId}`, catalog);
  }
  async delete(profileId: string, serverId: string) {
    this.catalogs.delete(`${profileId}/${serverId}`);
  }
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Buffer.from(digest).toString('hex');
}
