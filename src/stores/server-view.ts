import type { AuthConfig, ServerConfig } from '../domain/server-config';
import type { ServerLogEntry } from '../domain/server-log';
import type { ServerStatus } from '../domain/server-status';
import type { RegisteredServer, Registry, ServerScope } from '../mcp/registry';
import { describeConnectionError } from './server-messages';
import { enabledToolCount, type memoizedToolViews, type ToolView } from './server-tools';

/** One server as the servers manager shows it. */
export interface ServerView {
  readonly id: string;
  readonly name: string;
  readonly url: string;
  readonly scope: ServerScope;
  readonly authKind: AuthConfig['kind'];
  /** Its settings (no secrets: those live in the vault), for the edit form. */
  readonly config: ServerConfig;
  readonly status: ServerStatus;
  readonly error?: string;
  readonly toolCount: number;
  /** Whether the server has ever listed its tools (here or in a stored catalog): until then its count means nothing. */
  readonly hasToolList: boolean;
  /** Of them, the tools not switched off (by the person or the deployer). */
  readonly enabledToolCount: number;
  /** The last known tools, with the person's switches and descriptions (for an app server, over the app's). */
  readonly tools: readonly ToolView[];
  /** What the size caps cut from its tool list, and tools whose arguments cannot be checked: one line each. */
  readonly toolNotes: readonly string[];
  readonly isCatalogStale: boolean;
  /** Its requests go through the CORS relay ("Route through relay"). */
  readonly viaRelay: boolean;
  /** Connected without the server's own stream, so a change to its tools shows only when the app lists them again. */
  readonly hasNoLiveUpdates: boolean;
  /** It declared prompts when it last connected in this page (kept while it is disconnected, as when idle). */
  readonly offersPrompts: boolean;
  /** It failed on CORS, a relay is set and it is not routed through it yet: "Connect through relay" is offered. */
  readonly offersRelay: boolean;
  /** The server's log messages since the page opened (never shown in the chat). */
  readonly logs: readonly ServerLogEntry[];
  /** The `instructions` the server gave when it last connected. */
  readonly instructions?: string;
}

/**
 * The deployer's servers first, then by name: the same order after a reload and in every tab (the registry's own
 * order is arrival, which a reload or another tab's registration in the person's pauses changes).
 */
export const inListOrder = (a: RegisteredServer, b: RegisteredServer): number =>
  (a.scope === b.scope ? 0 : a.scope === 'app' ? -1 : 1) ||
  a.config.name.localeCompare(b.config.name, undefined, { sensitivity: 'base' }) ||
  a.config.id.localeCompare(b.config.id);

/**
 * One registered server as the servers manager shows it. `promptServers` holds the servers that declared prompts when
 * they last connected (an idle disconnect does not take the `/` hint away); this keeps it up to date.
 */
export function serverViewOf(
  server: RegisteredServer,
  registry: Registry,
  toolsOf: ReturnType<typeof memoizedToolViews>,
  promptServers: Set<string>,
): ServerView {
  const { config, scope, state, catalog, isCatalogStale } = server;
  if (state.status === 'connected') {
    if (state.offersPrompts) promptServers.add(config.id);
    else promptServers.delete(config.id);
  }
  return {
    id: config.id,
    name: config.name,
    url: config.url,
    scope,
    authKind: config.auth.kind,
    config,
    status: state.status,
    ...(state.lastError
      ? {
          error: describeConnectionError(state.lastError, config.auth, {
            isOwn: scope === 'user',
            hasRelay: registry.relayUrl() !== undefined,
          }),
        }
      : {}),
    toolCount: catalog?.tools.length ?? 0,
    hasToolList: catalog !== undefined,
    // Made when first read (the Servers panel's list), not on every registry event for every server.
    get tools() {
      return toolsOf(server);
    },
    get enabledToolCount() {
      return enabledToolCount(server);
    },
    toolNotes: [...(catalog?.cuts ?? []), ...registry.toolWarnings(config.id)],
    isCatalogStale,
    viaRelay: config.viaRelay,
    hasNoLiveUpdates: state.status === 'connected' && state.liveUpdates === false,
    offersPrompts: promptServers.has(config.id),
    offersRelay:
      scope === 'user' &&
      !config.viaRelay &&
      state.status === 'error' &&
      state.lastError?.kind === 'cors' &&
      registry.relayUrl() !== undefined,
    logs: registry.logs(config.id),
    ...(catalog?.instructions ? { instructions: catalog.instructions } : {}),
  };
}
