import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ValidationError } from '../domain/errors';
import { silentLogger, type Logger } from '../domain/logger';
import { ServerConfig, type ServerConfigInput } from '../domain/server-config';
import type { ServerState } from '../domain/server-status';
import type { ToolRef } from '../domain/tool-catalog';
import type { AppServerToolOverrides } from '../domain/tool-overrides';
import type { ToolCallResult } from '../domain/tool-result';
import { parseOrThrow } from '../domain/validation';
import { readStoredCatalog, type CatalogStore } from './catalog';
import type { ClientHandlers } from './client-factory';
import type { FetchLike } from './network';
import type { ConnectionTest } from './connection-test';
import { LazyConnection } from './lazy-kit';
import { readServerHeaders, type PendingSecrets, type SecretStore } from './server-headers';
import { DEFAULT_TIMING, type ConnectionTiming } from './connection-timing';
import type { CallOptions } from './server-connection-deps';
import type { RegistryOAuth, SignInCallback, SignInHost } from './sign-in';
import { ServerLogs } from './server-logs';
import { checkRelay } from './relay-client';
import type { ServerLogEntry } from '../domain/server-log';
import { RegistryEntries, type Entry } from './registry-entries';
import { serverReads } from './registry-server-reads';
import { connectionActions } from './registry-connections';
import { takeInTools } from './registry-tool-intake';
import { RegistrySignIns } from './registry-sign-ins';
import { argumentsProblem, callRegisteredTool } from './registry-tool-call';
import type { EffectiveTool, RegisteredServer, Registry, RegistryEvent, ServerScope } from './registry-types';
import type { StreamSlots } from './stream-slots';

export type { EffectiveTool, RegisteredServer, Registry, RegistryEvent, ServerScope };

export interface RegistryDeps extends ClientHandlers {
  readonly profileId: string;
  readonly appOrigin: string;
  readonly fetch: FetchLike;
  readonly now: () => number;
  readonly sha256Hex: (text: string) => Promise<string>;
  readonly secrets: SecretStore;
  readonly catalogs: CatalogStore;
  readonly timing?: Partial<ConnectionTiming>;
  /** OAuth for servers whose auth kind is oauth; without it they can only report needs-auth. */
  readonly oauth?: RegistryOAuth;
  /** Where failures the registry goes on past are reported (silent when omitted). */
  readonly logger?: Logger;
  /** Slots for long-lived streams to plain-http addresses, shared by every connection in the app's tabs. */
  readonly streamSlots?: StreamSlots;
  /** Lets the page handle input between the steps of taking in a large catalog (stored or listed, checked, named). */
  readonly yieldToPage?: () => Promise<void>;
}

export type { ConnectionTest, PendingSecrets, RegistryOAuth, SignInCallback };

/** The MCP registry: servers added, changed and removed at runtime, their catalogs, and tool calls. */
export function createRegistry(deps: RegistryDeps): Registry {
  const listeners = new Set<(event: RegistryEvent) => void>();
  const timing = { ...DEFAULT_TIMING, ...deps.timing };
  const entries = new RegistryEntries();
  /** The CORS relay in effect (the person's setting, else the deployer's), read at each connect. */
  let relayUrl: string | undefined;
  const currentRelayUrl = () => relayUrl;
  /** What every connection to a server (a registered one, or a one-off test) is given. */
  const connectionBasics = {
    appOrigin: deps.appOrigin,
    fetch: deps.fetch,
    relayUrl: currentRelayUrl,
    now: deps.now,
    timing,
    ...(deps.streamSlots ? { streamSlots: deps.streamSlots } : {}),
  };

  const logger = deps.logger ?? silentLogger;
  const logs = new ServerLogs();
  const emit = (event: RegistryEvent) => listeners.forEach((listener) => listener(event));
  const signInHost: SignInHost = {
    profileId: deps.profileId,
    fetch: deps.fetch,
    relayUrl: currentRelayUrl,
    now: deps.now,
    logger,
    configOf: (id) => entries.get(id)?.config,
    serverIds: () => entries.ids(),
    connect: (id) => registry.connect(id),
    disconnect: (id) => registry.disconnect(id),
  };
  const signIns = new RegistrySignIns(deps.oauth, signInHost);

  /** A server's entry, with its (lazy) connection, added to the registry. */
  function addEntry(config: ServerConfig, scope: ServerScope): Entry {
    const onState = (state: ServerState) => emit({ type: 'status', serverId: config.id, state });
    const connection = new LazyConnection(
      config,
      (kit, current) =>
        new kit.ServerConnection(current, {
          ...connectionBasics,
          readHeaders: (latest) => readServerHeaders(deps.secrets, deps.profileId, latest),
          oauth: () => signIns.of(kit).sessionFor(config.id),
          makeClient: (onToolsChanged): Client =>
            kit.createMcpClient(
              deps,
              onToolsChanged,
              (params) => {
                logs.add(config.id, params, deps.now());
                emit({ type: 'log', serverId: config.id });
              },
              { id: config.id, name: entries.get(config.id)?.config.name ?? config.name },
              {
                onPromptsChanged: () => emit({ type: 'prompts', serverId: config.id }),
                onResourcesChanged: () => emit({ type: 'resources', serverId: config.id }),
              },
            ),
          onState,
          onTools: (listed, instructions) =>
            takeInTools({ entries, logger, emit, deps }, config.id, listed, instructions),
          onNote: (level, text) => registry.note(config.id, text, level),
          logger,
        }),
      onState,
    );
    const entry: Entry = { config, scope, connection };
    entries.add(entry);
    return entry;
  }

  const registry: Registry = {
    ...serverReads(entries, timing),
    ...signIns.actions(),
    ...connectionActions({ entries, logger, emit, deps, connectionBasics, signIns }),

    /** Adds a server without connecting; its stored catalog (if any) is searchable at once. */
    async register(input, scope, { whenIdle } = {}) {
      const config = parseOrThrow(ServerConfig, input, 'Server');
      entries.checkUnique(config);
      if (whenIdle) {
        // In the background: not listed until its stored tools are in, taken in only in the person's pauses.
        const step = async () => {
          await whenIdle();
          await deps.yieldToPage?.();
        };
        await whenIdle();
        const limited = await readStoredCatalog(deps.catalogs, deps.profileId, config.id, logger, step);
        entries.checkUnique(config); // Another may have taken the name or id meanwhile.
        entries.setCatalog(addEntry(config, scope), limited);
        emit({ type: 'registered', serverId: config.id });
        return config;
      }
      const entry = addEntry(config, scope);
      const limited = await readStoredCatalog(deps.catalogs, deps.profileId, config.id, logger, deps.yieldToPage);
      if (entries.get(config.id) !== entry) return config; // Removed while its catalog was read.
      entries.setCatalog(entry, limited);
      emit({ type: 'registered', serverId: config.id });
      return config;
    },

    /** Changes a server's config; a new URL, transport or auth reconnects on next use. */
    async update(input: ServerConfigInput): Promise<ServerConfig> {
      const config = parseOrThrow(ServerConfig, input, 'Server');
      const entry = entries.get(config.id);
      if (!entry)
        throw new ValidationError('Server', [
          { path: 'id', message: `No server with id "${config.id}" is registered` },
        ]);
      entries.checkUnique(config, config.id);
      entry.config = config;
      await entry.connection.reconfigure(config);
      emit({ type: 'tools', serverId: config.id });
      return config;
    },

    /** Removes a server: closes its connection, removes its catalog and clears its credentials. */
    async unregister(serverId: string): Promise<void> {
      const entry = entries.get(serverId);
      if (!entry) return;
      entries.remove(serverId);
      signIns.forget(serverId);
      await entry.connection.dispose();
      await Promise.all([
        deps.catalogs.delete(deps.profileId, serverId),
        deps.secrets.clearOwner(deps.profileId, serverId),
      ]);
      logs.clear(serverId);
      emit({ type: 'unregistered', serverId });
    },

    list(): RegisteredServer[] {
      return entries.all().map((entry) => registry.get(entry.config.id)!);
    },

    get(serverId: string): RegisteredServer | undefined {
      const entry = entries.get(serverId);
      if (!entry) return undefined;
      const state = entry.connection.current;
      const { config, scope, catalog } = entry;
      return {
        config,
        scope,
        state,
        ...(catalog ? { catalog } : {}),
        isCatalogStale: state.status !== 'connected',
        personalToolOverrides: entries.personalOverridesOf(entry),
      };
    },

    /** The enabled tools of the given servers (all servers when omitted), with overrides applied. */
    tools(serverIds?: readonly string[]): EffectiveTool[] {
      return entries.enabledTools(serverIds);
    },

    toolWarnings: (serverId) => entries.toolWarnings(serverId),

    /**
     * Sets the person's own tool overrides for the app's servers (by server id, from their profile), applied on
     * top of each app server's config from now on, also to servers registered later. User servers ignore them.
     */
    setAppToolOverrides(overrides: Readonly<AppServerToolOverrides>): void {
      for (const serverId of entries.setAppToolOverrides(overrides)) emit({ type: 'tools', serverId });
    },

    /** The CORS relay in effect. */
    relayUrl: currentRelayUrl,

    /** Sets the CORS relay; servers routed through it reconnect through the new one on next use. */
    async setRelayUrl(url: string | undefined): Promise<void> {
      if (url === relayUrl) return;
      relayUrl = url;
      await Promise.all(
        entries
          .all()
          .filter((e) => e.config.viaRelay)
          .map((e) => e.connection.disconnect()),
      );
      for (const entry of entries.all())
        emit({ type: 'status', serverId: entry.config.id, state: entry.connection.current });
    },

    checkRelay: async () => (relayUrl ? checkRelay(relayUrl, deps.fetch, deps.logger) : undefined),

    /** Maps a model tool name back to its server and tool. */
    resolveToolName(modelName: string): ToolRef | undefined {
      return entries.resolveToolName(modelName);
    },

    /** Calls a tool after checking it is known, enabled and given valid arguments. Never throws. */
    async callTool(
      serverId: string,
      toolName: string,
      args: unknown,
      options: CallOptions = {},
    ): Promise<ToolCallResult> {
      return callRegisteredTool(entries, serverId, toolName, args, options);
    },

    checkArguments: (serverId, toolName, args) => argumentsProblem(entries, serverId, toolName, args),
    /** The server's log messages (`notifications/message`) and the app's notes since the page opened, newest last. */
    logs(serverId: string): readonly ServerLogEntry[] {
      return logs.list(serverId);
    },

    note(serverId, text, level = 'warning') {
      if (!entries.get(serverId)) return;
      logs.note(serverId, text, level, deps.now());
      emit({ type: 'note', serverId });
    },

    subscribe(listener: (event: RegistryEvent) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async close(): Promise<void> {
      await Promise.all(entries.all().map((e) => e.connection.dispose()));
      entries.clear();
      listeners.clear();
    },
  };
  return registry;
}
