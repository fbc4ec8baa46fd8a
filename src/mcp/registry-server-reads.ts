import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ResourceReading } from '../domain/tool-display';
import type { PromptListing, PromptReading } from '../domain/prompts';
import type { ConnectionTiming } from './connection-timing';
import { loadConnectionKit, type ConnectionKit } from './lazy-kit';
import type { RegistryEntries } from './registry-entries';
import type { Registry } from './registry-types';

/** What the registry reads from a registered server besides tools: its client, resources, prompts and completions. */
export type ServerReads = Pick<
  Registry,
  'connectedClient' | 'readResource' | 'listPrompts' | 'getPrompt' | 'completePromptArgument'
>;

/** The registry's reads of a server's resources and prompts, each on the server's own connection. */
export function serverReads(entries: RegistryEntries, timing: ConnectionTiming): ServerReads {
  const serverName = (serverId: string) => entries.get(serverId)?.config.name ?? serverId;
  /** Runs `use` with the server's connected client, or `fail` with why it cannot (never throws). */
  async function withServerClient<T>(
    serverId: string,
    use: (client: Client, kit: ConnectionKit, name: string) => Promise<T>,
    fail: (message: string) => T,
  ): Promise<T> {
    const entry = entries.get(serverId);
    if (!entry || !entry.config.enabled) return fail('the server is not available');
    try {
      const client = await entry.connection.ensureConnected();
      return await use(client, await loadConnectionKit(), entry.config.name);
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error));
    }
  }

  return {
    /** The server's SDK client, connected now; throws when the server is unknown, switched off or unreachable. */
    async connectedClient(serverId: string): Promise<Client> {
      const entry = entries.get(serverId);
      if (!entry || !entry.config.enabled) throw new Error(`The server "${serverId}" is not available.`);
      return entry.connection.ensureConnected();
    },

    /** Reads a resource of a server (`resources/read`), for a resource link clicked in a result. Never throws. */
    async readResource(serverId: string, uri: string, signal?: AbortSignal): Promise<ResourceReading> {
      const entry = entries.get(serverId);
      if (!entry || !entry.config.enabled)
        return { ok: false, message: `The server "${serverId}" is not available, so ${uri} cannot be read.` };
      try {
        const client = await entry.connection.ensureConnected();
        const result = await client.readResource(
          { uri },
          { timeout: timing.callTimeoutMs, ...(signal ? { signal } : {}) },
        );
        return { ok: true, contents: result.contents.map(toResourceContent) };
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        return { ok: false, message: `${entry.config.name} could not read ${uri}: ${why}` };
      }
    },

    /** The server's prompts (prompts/list, every page). Never throws. */
    async listPrompts(serverId: string): Promise<PromptListing> {
      return withServerClient<PromptListing>(
        serverId,
        async (client, kit, name) => ({
          ok: true,
          prompts: await kit.listAllPrompts(client, { id: serverId, name }, timing.callTimeoutMs),
        }),
        (message) => ({ ok: false, message: `${serverName(serverId)} could not list its prompts: ${message}` }),
      );
    },

    /** A prompt's messages with its arguments (prompts/get). Never throws. */
    async getPrompt(serverId: string, name: string, args: Record<string, string>): Promise<PromptReading> {
      return withServerClient<PromptReading>(
        serverId,
        async (client, kit) => ({ ok: true, ...(await kit.readPrompt(client, name, args, timing.callTimeoutMs)) }),
        (message) => ({
          ok: false,
          message: `${serverName(serverId)} could not give the prompt "${name}": ${message}`,
        }),
      );
    },

    /** Values the server suggests for a prompt's argument (completion/complete); none on any failure. */
    async completePromptArgument(serverId, promptName, argument, context): Promise<string[]> {
      return withServerClient(
        serverId,
        (client, kit) => kit.completePromptArgument(client, promptName, argument, context, timing.callTimeoutMs),
        () => [],
      );
    },
  };
}

function toResourceContent(item: { uri: string; mimeType?: string; text?: unknown; blob?: unknown; _meta?: unknown }) {
  const meta = item._meta;
  return {
    type: 'resource' as const,
    uri: item.uri,
    ...(item.mimeType ? { mimeType: item.mimeType } : {}),
    ...(typeof item.text === 'string' ? { text: item.text } : {}),
    ...(typeof item.blob === 'string' ? { blob: item.blob } : {}),
    ...(typeof meta === 'object' && meta !== null && !Array.isArray(meta)
      ? { meta: meta as Readonly<Record<string, unknown>> }
      : {}),
  };
}
