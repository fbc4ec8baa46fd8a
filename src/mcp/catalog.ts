import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ToolDefinition, type ToolCatalog } from '../domain/tool-catalog';

/** Where catalogs are kept between sessions (the storage layer's tool-catalog repository fits). */
export interface CatalogStore {
  get(profileId: string, serverId: string): Promise<ToolCatalog | undefined>;
  set(catalog: ToolCatalog): Promise<void>;
  delete(profileId: string, serverId: string): Promise<void>;
}

/** Builds a catalog from a tools/list answer; definitions that are not valid tools are left out. */
export async function catalogFromTools(
  profileId: string,
  serverId: string,
  tools: readonly Tool[],
  now: number,
  sha256Hex: (text: string) => Promise<string>,
): Promise<ToolCatalog> {
  const seen = new Set<string>();
  const definitions: ToolDefinition[] = [];
  for (const tool of tools) {
    const parsed = ToolDefinition.safeParse(tool);
    if (!parsed.success || seen.has(parsed.data.name)) continue;
    seen.add(parsed.data.name);
    definitions.push(parsed.data);
  }
  const hash = await sha256Hex(JSON.stringify([...definitions].sort((a, b) => a.name.localeCompare(b.name))));
  return { profileId, serverId, tools: definitions, hash, fetchedAt: now };
}
