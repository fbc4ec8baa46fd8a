import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { logFailure, type Logger } from '../domain/logger';
import { ServerConfig, type ServerConfigInput } from '../domain/server-config';
import type { ServerState } from '../domain/server-status';
import { parseOrThrow } from '../domain/validation';
import type { ConnectionTest } from './connection-test';
import { withKit, type ConnectionKit } from './lazy-kit';
import type { RegistryDeps } from './registry';
import type { Entry, RegistryEntries } from './registry-entries';
import { untilAborted } from './async-limits';
import type { RegistrySignIns } from './registry-sign-ins';
import type { Registry, RegistryEvent } from './registry-types';
import type { ServerConnectionDeps } from './server-connection-deps';
import { readServerHeaders, type PendingSecrets } from './server-headers';

/** What the registry's connection actions use of it. */
export interface ConnectionActionsHost {
  readonly entries: RegistryEntries;
  readonly logger: Logger;
  readonly emit: (event: RegistryEvent) => void;
  readonly deps: RegistryDeps;
  /** What every connection to a server (a registered one, or a one-off test) is given. */
  readonly connectionBasics: Pick<
    ServerConnectionDeps,
    'appOrigin' | 'fetch' | 'relayUrl' | 'now' | 'timing' | 'streamSlots'
  >;
  readonly signIns: RegistrySignIns;
}

type ConnectionActions = Pick<Registry, 'connect' | 'checkAgain' | 'relistTools' | 'testConnection' | 'disconnect'>;

/** The registry's actions on a server's connection: connect, check again, list its tools again, test, disconnect. */
export function connectionActions({
  entries,
  logger,
  emit,
  deps,
  connectionBasics,
  signIns,
}: ConnectionActionsHost): ConnectionActions {
  const { now, timing } = connectionBasics;
  /**
   * Lists the entry's tools again: one listing in flight per server, shared by whoever asks meanwhile; `isThrottled`,
   * none within `relistOnUnknownToolMs` of the last one's start (a model repeating a name no server has).
   */
  const relist = (entry: Entry, isThrottled: boolean): Promise<void> => {
    if (entry.relisting) return entry.relisting;
    const last = entry.relistedAt;
    if (isThrottled && last !== undefined && now() - last < timing.relistOnUnknownToolMs) return Promise.resolve();
    entry.relistedAt = now();
    const serverId = entry.config.id;
    const relisting = entry.connection
      .relist()
      .catch(logFailure(logger, 'Listing tools again failed', { serverId }))
      .finally(() => {
        if (entry.relisting === relisting) entry.relisting = undefined;
      });
    entry.relisting = relisting;
    return relisting;
  };
  const actions: ConnectionActions = {
    /** Connects now (the "Test connection" action); resolves to the resulting state, never throws. */
    async connect(serverId: string): Promise<ServerState> {
      const entry = entries.get(serverId);
      if (!entry) return { status: 'disconnected' };
      // In error while its connection is still open (a call was answered wrongly): check it again first.
      if (entry.connection.current.status === 'error') await entry.connection.recheck();
      // A failed connect is the state returned (its lastError); the log has the rest.
      await entry.connection.ensureConnected().catch(logFailure(logger, 'Connecting failed', { serverId }));
      return entry.connection.current;
    },

    /**
     * "Check again": a connected server's tools are listed again, and its prompts and its resources (where they were
     * listed) are listed again too (as its capabilities allow); any other server connects as `connect` does. Resolves to the resulting state, never throws.
     */
    async checkAgain(serverId: string): Promise<ServerState> {
      const entry = entries.get(serverId);
      if (entry?.connection.current.status !== 'connected') return actions.connect(serverId);
      await relist(entry, false); // The person asked: read now, whenever the last re-read was.
      if (entry.connection.current.offersPrompts) emit({ type: 'prompts', serverId });
      emit({ type: 'resources', serverId }); // Its resources, where they were listed, are listed again too.
      return entry.connection.current;
    },

    /**
     * Lists a connected server's tools again (nothing for one not connected), at most once per
     * `relistOnUnknownToolMs`; resolves as the signal aborts, the listing going on. Never throws.
     */
    async relistTools(serverId: string, signal?: AbortSignal): Promise<void> {
      const entry = entries.get(serverId);
      if (entry?.connection.current.status !== 'connected') return;
      await untilAborted(relist(entry, true), signal).catch(() => {});
    },

    /**
     * Connects to a config once without registering or storing it, lists its tools and closes ("Test
     * connection"). `pending` holds secrets typed but not saved; a registered server's stored ones fill the
     * rest. Throws only a ValidationError for an invalid config.
     */
    async testConnection(input: ServerConfigInput, pending: PendingSecrets = {}): Promise<ConnectionTest> {
      const config = parseOrThrow(ServerConfig, input, 'Server');
      const known = entries.get(config.id)?.config;
      // Its OAuth tokens only go along to the URL they were issued for.
      const isSameOAuth = known?.auth.kind === 'oauth' && config.auth.kind === 'oauth' && known.url === config.url;
      const probe = (kit: ConnectionKit) =>
        kit.probeServer(config, {
          ...connectionBasics,
          readHeaders: (current) =>
            readServerHeaders(known ? deps.secrets : undefined, deps.profileId, current, pending),
          oauth: () => (isSameOAuth ? signIns.of(kit).sessionFor(config.id) : undefined),
          makeClient: (onToolsChanged): Client => kit.createMcpClient(deps, onToolsChanged),
        });
      return withKit<Promise<ConnectionTest> | ConnectionTest>(probe, (error) => ({
        ok: false,
        status: 'error',
        error,
      }));
    },

    async disconnect(serverId: string): Promise<void> {
      await entries.get(serverId)?.connection.disconnect();
    },
  };
  return actions;
}
