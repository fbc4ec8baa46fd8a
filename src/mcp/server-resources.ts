import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { ErrorCode, McpError, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type {
  ResourceContentItem,
  ResourceInfo,
  ResourceListing,
  ResourceTemplateInfo,
} from '../domain/server-resource';
import type { Registry } from './registry-types';
import { logFailure, silentLogger, type Logger } from '../domain/logger';

// Resources of a thread's servers through the SDK client (issue #20, item 1): listing (every page), reading,
// completions of template arguments (`completion/complete`) and `resources/subscribe` updates.

/** Pages of a listing read at most (a server that keeps answering with a cursor is cut there). */
const MAX_PAGES = 20;

/** A server's resources as the composer and the servers manager use them. */
export interface ServerResources {
  /** Lists the server's resources and templates (all pages); never throws (a problem is in the listing). */
  list(serverId: string): Promise<ResourceListing>;
  /** Reads a resource's contents; throws with the server's reason. */
  read(serverId: string, uri: string, signal?: AbortSignal): Promise<ResourceContentItem[]>;
  /** Suggestions for one argument of a template (`completion/complete`); empty when the server offers none. */
  complete(
    serverId: string,
    uriTemplate: string,
    argument: { name: string; value: string },
    context: Readonly<Record<string, string>>,
  ): Promise<string[]>;
  /**
   * Subscribes to a resource's updates (`resources/subscribe`); resolves to the unsubscribe function, or undefined
   * when the server does not offer subscriptions.
   */
  subscribe(serverId: string, uri: string, onUpdated: () => void): Promise<(() => Promise<void>) | undefined>;
}

/** The URI of a template with its variables filled in. */
export function expandTemplate(uriTemplate: string, values: Readonly<Record<string, string>>): string {
  return new UriTemplate(uriTemplate).expand({ ...values });
}

/** The variables of a URI template. */
export function templateVariables(uriTemplate: string): string[] {
  try {
    return new UriTemplate(uriTemplate).variableNames;
  } catch {
    return [];
  }
}

const why = (error: unknown) => (error instanceof Error ? error.message : String(error));
const isMethodNotFound = (error: unknown) =>
  error instanceof McpError && error.code === Number(ErrorCode.MethodNotFound);

/** Listeners of `notifications/resources/updated` per client, by URI (one handler per client dispatches them). */
const updateListeners = new WeakMap<Client, Map<string, Set<() => void>>>();

function listenersOf(client: Client): Map<string, Set<() => void>> {
  let byUri = updateListeners.get(client);
  if (!byUri) {
    const created = new Map<string, Set<() => void>>();
    byUri = created;
    updateListeners.set(client, created);
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      created.get(notification.params.uri)?.forEach((listener) => listener());
    });
  }
  return byUri;
}

/** Resources, templates, completions and subscriptions of the registry's servers. */
export function createServerResources(
  registry: Pick<Registry, 'connectedClient' | 'get'>,
  logger: Logger = silentLogger,
): ServerResources {
  return {
    async list(serverId) {
      const serverName = registry.get(serverId)?.config.name ?? serverId;
      const empty = { serverId, serverName, resources: [], templates: [], canSubscribe: false };
      let client: Client;
      try {
        client = await registry.connectedClient(serverId);
      } catch (error) {
        return { ...empty, problem: `${serverName} could not be reached: ${why(error)}` };
      }
      const capability = client.getServerCapabilities()?.resources;
      if (!capability) return { ...empty, notOffered: true };
      const resources: ResourceInfo[] = [];
      const templates: ResourceTemplateInfo[] = [];
      const problems: string[] = [];
      try {
        let cursor: string | undefined;
        for (let page = 0; page < MAX_PAGES; page++) {
          const result = await client.listResources(cursor ? { cursor } : undefined);
          resources.push(...result.resources.map(toResourceInfo));
          cursor = result.nextCursor;
          if (!cursor) break;
        }
      } catch (error) {
        problems.push(`listing its resources failed: ${why(error)}`);
      }
      try {
        let cursor: string | undefined;
        for (let page = 0; page < MAX_PAGES; page++) {
          const result = await client.listResourceTemplates(cursor ? { cursor } : undefined);
          templates.push(
            ...result.resourceTemplates.map((t) => ({
              uriTemplate: t.uriTemplate,
              name: t.name,
              ...(t.title ? { title: t.title } : {}),
              ...(t.description ? { description: t.description } : {}),
              ...(t.mimeType ? { mimeType: t.mimeType } : {}),
              variables: templateVariables(t.uriTemplate),
            })),
          );
          cursor = result.nextCursor;
          if (!cursor) break;
        }
      } catch (error) {
        // Templates are optional: a server without any may not know the method at all.
        if (!isMethodNotFound(error)) problems.push(`listing its resource templates failed: ${why(error)}`);
      }
      return {
        serverId,
        serverName,
        resources,
        templates,
        canSubscribe: capability.subscribe === true,
        ...(problems.length ? { problem: `${serverName}: ${problems.join('; ')}` } : {}),
      };
    },

    async read(serverId, uri, signal) {
      const client = await registry.connectedClient(serverId);
      const result = await client.readResource({ uri }, signal ? { signal } : undefined);
      return result.contents.map((item) => ({
        uri: item.uri,
        ...(item.mimeType ? { mimeType: item.mimeType } : {}),
        ...('text' in item && typeof item.text === 'string' ? { text: item.text } : {}),
        ...('blob' in item && typeof item.blob === 'string' ? { blob: item.blob } : {}),
      }));
    },

    async complete(serverId, uriTemplate, argument, context) {
      const client = await registry.connectedClient(serverId);
      if (!client.getServerCapabilities()?.completions) return [];
      const result = await client.complete({
        ref: { type: 'ref/resource', uri: uriTemplate },
        argument,
        ...(Object.keys(context).length ? { context: { arguments: { ...context } } } : {}),
      });
      return result.completion.values;
    },

    async subscribe(serverId, uri, onUpdated) {
      const client = await registry.connectedClient(serverId);
      if (client.getServerCapabilities()?.resources?.subscribe !== true) return undefined;
      const byUri = listenersOf(client);
      const listeners = byUri.get(uri) ?? new Set();
      byUri.set(uri, listeners);
      listeners.add(onUpdated);
      if (listeners.size === 1) await client.subscribeResource({ uri });
      return async () => {
        listeners.delete(onUpdated);
        if (listeners.size === 0) {
          byUri.delete(uri);
          await client
            .unsubscribeResource({ uri })
            .catch(logFailure(logger, 'resources/unsubscribe failed', { serverId, uri }));
        }
      };
    },
  };
}

function toResourceInfo(r: {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}): ResourceInfo {
  return {
    uri: r.uri,
    name: r.name,
    ...(r.title ? { title: r.title } : {}),
    ...(r.description ? { description: r.description } : {}),
    ...(r.mimeType ? { mimeType: r.mimeType } : {}),
    ...(typeof r.size === 'number' ? { size: r.size } : {}),
  };
}
