// The bench's many-tools catalog, built the same way in Node (seeding through the harness) and in the harness's
// worker (stored while a person types): `count` servers of `perServer` distinct tools, made from a list of real
// tools (LiveMCPBench's), copied with a suffix where the list is shorter.
import type { ToolDefinition } from '../../../src/domain/tool-catalog';
import type { Storage } from '../../../src/storage/storage';

export interface SourceTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: Record<string, unknown>;
}

export interface BenchServer {
  readonly id: string;
  readonly name: string;
  readonly tools: readonly ToolDefinition[];
}

export function benchServers(source: readonly SourceTool[], count: number, perServer: number): BenchServer[] {
  return Array.from({ length: count }, (_, s) => ({
    id: `server-${s + 1}`,
    name: `Server ${s + 1}`,
    tools: Array.from({ length: perServer }, (_, t): ToolDefinition => {
      const tool = source[(s * perServer + t) % source.length]!;
      return {
        name: `${tool.name}_${s}_${t}`,
        description: tool.description ?? '',
        inputSchema: { ...tool.inputSchema, type: 'object' },
      };
    }),
  }));
}

/**
 * Stores servers with their catalogs, as earlier sessions would have left them (their URLs are on a closed port, so
 * they stay offline). The catalog first: an app tab open meanwhile registers a server as soon as it is stored.
 */
export async function storeBenchServers(
  storage: Storage,
  profileId: string,
  servers: readonly BenchServer[],
): Promise<void> {
  for (const server of servers) {
    await storage.catalog.set({
      profileId,
      serverId: server.id,
      tools: [...server.tools],
      hash: `seeded-${server.id}`,
      fetchedAt: Date.now(),
    });
    await storage.profiles.saveServer(profileId, {
      id: server.id,
      name: server.name,
      url: `http://127.0.0.1:9/${server.id}/mcp`,
    });
  }
}
