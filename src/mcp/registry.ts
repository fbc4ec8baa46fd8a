import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ValidationError } from '../domain/errors';
import { logFailure, silentLogger, type Logger } from '../domain/logger';
import { ServerConfig, type ServerConfigInput, type ToolOverride } from '../domain/server-config';
import type { ServerState } from '../domain/server-status';
import { effectiveTool } from '../domain/tool';
import type { ToolCatalog, ToolRef } from '../domain/tool-catalog';
import { layerToolOverride, ownEntry, sameToolOverrides, type AppServerToolOverrides } from '../domain/tool-overrides';
import { failedResult, type ToolCallResult } from '../domain/tool-result';
import type { ResourceReading } from '../domain/tool-display';
import type { PromptListing, PromptReading } from '../domain/prompts';
import { parseOrThrow } from '../domain/validation';
import { catalogFromTools, limitCatalog, type CatalogStore } from './catalog';
import type { ClientHandlers } from './client-factory';
import type { FetchLike } from './network';
import type { ConnectionTest } from './connection-test';
import {
  LazyConnection,
  loadConnectionKit,
  loadedConnectionKit,
  unavailableResult,
  withKit,
  type ConnectionKit,
} from './lazy-kit';
import { readServerHeaders, type PendingSecrets, type SecretStore } from './server-headers';
import { DEFAULT_TIMING, type ConnectionTiming } from './connection-timing';
import type { CallOptions } from './server-connection';
import type { InputCheck } from './schema-validation';
import type { RegistryOAuth, SignInCallback, SignInFlows, SignInHost } from './sign-in';
import { ToolNameMap } from './tool-naming';
import { ServerLogs } from './server-logs';
import type { ServerLogEntry } from '../domain/server-log';
import type { EffectiveTool, RegisteredServer, Registry, RegistryEvent, ServerScope } from './registry-types';

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
}

export type { ConnectionTest, PendingSecrets, RegistryOAuth, SignInCallback };

interface Entry {
  config: ServerConfig;
  readonly scope: ServerScope;
  readonly connection: LazyConnection;
  catalog?: ToolCatalog;
  /** Argument checks, compiled once the connection code has loaded. */
  checks?: Map<string, InputCheck>;
}

/** The MCP registry: servers added, changed and removed at runtime, their catalogs, and tool calls. */
export function createRegistry(deps: RegistryDeps): Registry {
  const entries = new Map<string, Entry>();
  const listeners = new Set<(event: RegistryEvent) => void>();
  const timing = { ...DEFAULT_TIMING, ...deps.timing };
  let names = new ToolNameMap([]);
  /** The person's own overrides for app servers, kept apart from the deployer's config (which stays as shipped). */
  let appToolOverrides: Readonly<AppServerToolOverrides> = {};
  /** The CORS relay in effect (the person's setting, else the deployer's), read at each connect. */
  let relayUrl: string | undefined;
  const currentRelayUrl = () => relayUrl;

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
    serverIds: () => entries.keys(),
    connect: (id) => registry.connect(id),
    disconnect: (id) => registry.disconnect(id),
  };
  let flows: SignInFlows | undefined;
  const signInsOf = (kit: ConnectionKit) => (flows ??= new kit.SignInFlows(deps.oauth, signInHost));
  const signIns = async () => signInsOf(await loadConnectionKit());
  const rebuildNames = () => {
    names = new ToolNameMap(
      [...entries.values()].flatMap((e) =>
        (e.catalog?.tools ?? []).map((t) => ({ serverId: e.config.id, toolName: t.name })),
      ),
    );
  };

  function entryOf(serverId: string): Entry | undefined {
    return entries.get(serverId);
  }

  function setCatalog(entry: Entry, catalog: ToolCatalog | undefined): void {
    entry.catalog = catalog;
    const kit = loadedConnectionKit();
    entry.checks = kit ? compileChecks(kit, catalog) : undefined;
    rebuildNames();
  }

  function checksOf(entry: Entry, kit: ConnectionKit): Map<string, InputCheck> {
    return (entry.checks ??= compileChecks(kit, entry.catalog));
  }

  async function onTools(serverId: string, tools: Tool[], instructions?: string): Promise<void> {
    const entry = entryOf(serverId);
    if (!entry) return;
    const catalog = await catalogFromTools(deps.profileId, serverId, tools, deps.now(), deps.sha256Hex, instructions);
    if (entryOf(serverId) !== entry) return;
    setCatalog(entry, catalog);
    // Offline search only; the live list is in memory.
    await deps.catalogs.set(catalog).catch(logFailure(logger, 'Storing a tool catalog failed', { serverId }));
    emit({ type: 'tools', serverId });
  }

  function checkUnique(config: ServerConfig, replacing?: string): void {
    for (const [id, other] of entries) {
      if (id === replacing) continue;
      if (id === config.id)
        throw new ValidationError('Server', [
          { path: 'id', message: `A server with id "${config.id}" already exists` },
        ]);
      if (other.config.name.toLowerCase() === config.name.toLowerCase())
        throw new ValidationError('Server', [
          { path: 'name', message: `A server named "${config.name}" already exists` },
        ]);
    }
  }

  /** The person's overrides of an app server; a user server's own are its config's. */
  function personalOverridesOf(entry: Entry): Readonly<Record<string, ToolOverride>> {
    return entry.scope === 'app' ? (ownEntry(appToolOverrides, entry.config.id) ?? {}) : {};
  }

  /** A tool's override in effect: the server config's, with the person's on top for an app server. */
  function overrideOf(entry: Entry, toolName: string): ToolOverride | undefined {
    return layerToolOverride(
      ownEntry(entry.config.toolOverrides, toolName),
      ownEntry(personalOverridesOf(entry), toolName),
    );
  }

  function effectiveTools(entry: Entry): EffectiveTool[] {
    const { config } = entry;
    return (entry.catalog?.tools ?? []).flatMap((definition) => {
      const tool = effectiveTool({
        config,
        isAppServer: entry.scope === 'app',
        definition,
        override: overrideOf(entry, definition.name),
        modelName: names.nameOf({ serverId: config.id, toolName: definition.name }),
        warning: entry.checks?.get(definition.name)?.warning,
      });
      return tool ? [tool] : [];
    });
  }

  const serverName = (serverId: string) => entryOf(serverId)?.config.name ?? serverId;
  /** Runs `use` with the server's connected client, or `fail` with why it cannot (never throws). */
  async function withServerClient<T>(
    serverId: string,
    use: (client: Client, kit: ConnectionKit, name: string) => Promise<T>,
    fail: (message: string) => T,
  ): Promise<T> {
    const entry = entryOf(serverId);
    if (!entry || !entry.config.enabled) return fail('the server is not available');
    try {
      const client = await entry.connection.ensureConnected();
      return await use(client, await loadConnectionKit(), entry.config.name);
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error));
    }
  }

  const registry: Registry = {
    /** Adds a server without connecting; its stored catalog (if any) is searchable at once. */
    async register(input: ServerConfigInput, scope: ServerScope): Promise<ServerConfig> {
      const config = parseOrThrow(ServerConfig, input, 'Server');
      checkUnique(config);
      const onState = (state: ServerState) => emit({ type: 'status', serverId: config.id, state });
      const connection = new LazyConnection(
        config,
        (kit, current) =>
          new kit.ServerConnection(current, {
            appOrigin: deps.appOrigin,
            fetch: deps.fetch,
            relayUrl: currentRelayUrl,
            now: deps.now,
            timing,
            readHeaders: (latest) => readServerHeaders(deps.secrets, deps.profileId, latest),
            oauth: () => signInsOf(kit).sessionFor(config.id),
            makeClient: (onToolsChanged): Client =>
              kit.createMcpClient(
                deps,
                onToolsChanged,
                (params) => {
                  logs.add(config.id, params, deps.now());
                  emit({ type: 'log', serverId: config.id });
                },
                { id: config.id, name: entryOf(config.id)?.config.name ?? config.name },
                { onPromptsChanged: () => emit({ type: 'prompts', serverId: config.id }) },
              ),
            onState,
            onTools: (tools, instructions) => onTools(config.id, tools, instructions),
            logger,
          }),
        onState,
      );
      const entry: Entry = { config, scope, connection };
      entries.set(config.id, entry);
      const stored = await deps.catalogs
        .get(deps.profileId, config.id)
        .catch(logFailure(logger, 'Reading a stored tool catalog failed', { serverId: config.id }));
      setCatalog(entry, stored && limitCatalog(stored)); // One stored before the size caps may be over them.
      emit({ type: 'registered', serverId: config.id });
      return config;
    },

    /** Changes a server's config; a new URL, transport or auth reconnects on next use. */
    async update(input: ServerConfigInput): Promise<ServerConfig> {
      const config = parseOrThrow(ServerConfig, input, 'Server');
      const entry = entryOf(config.id);
      if (!entry)
        throw new ValidationError('Server', [
          { path: 'id', message: `No server with id "${config.id}" is registered` },
        ]);
      checkUnique(config, config.id);
      entry.config = config;
      await entry.connection.reconfigure(config);
      emit({ type: 'tools', serverId: config.id });
      return config;
    },

    /** Removes a server: closes its connection, removes its catalog and clears its credentials. */
    async unregister(serverId: string): Promise<void> {
      const entry = entryOf(serverId);
      if (!entry) return;
      entries.delete(serverId);
      flows?.forget(serverId);
      rebuildNames();
      await entry.connection.dispose();
      await Promise.all([
        deps.catalogs.delete(deps.profileId, serverId),
        deps.secrets.clearOwner(deps.profileId, serverId),
      ]);
      logs.clear(serverId);
      emit({ type: 'unregistered', serverId });
    },

    list(): RegisteredServer[] {
      return [...entries.values()].map((entry) => registry.get(entry.config.id)!);
    },

    get(serverId: string): RegisteredServer | undefined {
      const entry = entryOf(serverId);
      if (!entry) return undefined;
      const state = entry.connection.current;
      const { config, scope, catalog } = entry;
      return {
        config,
        scope,
        state,
        ...(catalog ? { catalog } : {}),
        isCatalogStale: state.status !== 'connected',
        personalToolOverrides: personalOverridesOf(entry),
      };
    },

    /** Connects now (the "Test connection" action); resolves to the resulting state, never throws. */
    async connect(serverId: string): Promise<ServerState> {
      const entry = entryOf(serverId);
      if (!entry) return { status: 'disconnected' };
      // In error while its connection is still open (a call was answered wrongly): check it again first.
      if (entry.connection.current.status === 'error') await entry.connection.recheck();
      // A failed connect is the state returned (its lastError); the log has the rest.
      await entry.connection.ensureConnected().catch(logFailure(logger, 'Connecting failed', { serverId }));
      return entry.connection.current;
    },

    /**
     * Connects to a config once without registering or storing it, lists its tools and closes ("Test
     * connection"). `pending` holds secrets typed but not saved; a registered server's stored ones fill the
     * rest. Throws only a ValidationError for an invalid config.
     */
    async testConnection(input: ServerConfigInput, pending: PendingSecrets = {}): Promise<ConnectionTest> {
      const config = parseOrThrow(ServerConfig, input, 'Server');
      const known = entryOf(config.id)?.config;
      // Its OAuth tokens only go along to the URL they were issued for.
      const isSameOAuth = known?.auth.kind === 'oauth' && config.auth.kind === 'oauth' && known.url === config.url;
      const probe = (kit: ConnectionKit) =>
        kit.probeServer(config, {
          appOrigin: deps.appOrigin,
          fetch: deps.fetch,
          relayUrl: currentRelayUrl,
          now: deps.now,
          timing,
          readHeaders: (current) =>
            readServerHeaders(known ? deps.secrets : undefined, deps.profileId, current, pending),
          oauth: () => (isSameOAuth ? signInsOf(kit).sessionFor(config.id) : undefined),
          makeClient: (onToolsChanged): Client => kit.createMcpClient(deps, onToolsChanged),
        });
      return withKit<Promise<ConnectionTest> | ConnectionTest>(probe, (error) => ({
        ok: false,
        status: 'error',
        error,
      }));
    },

    async disconnect(serverId: string): Promise<void> {
      await entryOf(serverId)?.connection.disconnect();
    },

    /** The enabled tools of the given servers (all servers when omitted), with overrides applied. */
    tools(serverIds?: readonly string[]): EffectiveTool[] {
      const ids = serverIds ?? [...entries.keys()];
      return ids.flatMap((id) => {
        const entry = entryOf(id);
        return entry && entry.config.enabled ? effectiveTools(entry) : [];
      });
    },

    /**
     * Sets the person's own tool overrides for the app's servers (by server id, from their profile), applied on
     * top of each app server's config from now on, also to servers registered later. User servers ignore them.
     */
    setAppToolOverrides(overrides: Readonly<AppServerToolOverrides>): void {
      const before = appToolOverrides;
      appToolOverrides = overrides;
      for (const [id, entry] of entries) {
        if (entry.scope === 'app' && !sameToolOverrides(ownEntry(before, id), ownEntry(overrides, id)))
          emit({ type: 'tools', serverId: id });
      }
    },

    /** The CORS relay in effect. */
    relayUrl: currentRelayUrl,

    /** Sets the CORS relay; servers routed through it reconnect through the new one on next use. */
    async setRelayUrl(url: string | undefined): Promise<void> {
      if (url === relayUrl) return;
      relayUrl = url;
      await Promise.all([...entries.values()].filter((e) => e.config.viaRelay).map((e) => e.connection.disconnect()));
      for (const [id, entry] of entries) emit({ type: 'status', serverId: id, state: entry.connection.current });
    },

    /** Maps a model tool name back to its server and tool. */
    resolveToolName(modelName: string): ToolRef | undefined {
      return names.resolve(modelName);
    },

    /** Calls a tool after checking it is known, enabled and given valid arguments. Never throws. */
    async callTool(
      serverId: string,
      toolName: string,
      args: unknown,
      options: CallOptions = {},
    ): Promise<ToolCallResult> {
      const entry = entryOf(serverId);
      if (!entry || !entry.config.enabled)
        return failedResult({ kind: 'server-unavailable', message: `The server "${serverId}" is not available.` }, 0);
      if (overrideOf(entry, toolName)?.enabled === false)
        return failedResult({ kind: 'tool-disabled', message: `The tool "${toolName}" is disabled.` }, 0);
      if (entry.catalog && !entry.catalog.tools.some((t) => t.name === toolName)) {
        return failedResult(
          { kind: 'unknown-tool', message: `The server "${entry.config.name}" has no tool "${toolName}".` },
          0,
        );
      }
      const argumentsObject = args === undefined ? {} : args;
      if (typeof argumentsObject !== 'object' || argumentsObject === null || Array.isArray(argumentsObject)) {
        return failedResult({ kind: 'invalid-arguments', message: 'Tool arguments must be a JSON object.' }, 0);
      }
      return withKit(async (kit) => {
        const problem = checksOf(entry, kit).get(toolName)?.check(argumentsObject);
        if (problem)
          return failedResult(
            { kind: 'invalid-arguments', message: `Invalid arguments for "${toolName}": ${problem}` },
            0,
          );
        return entry.connection.callTool(toolName, argumentsObject as Record<string, unknown>, options);
      }, unavailableResult);
    },

    /** The server's log messages (`notifications/message`) since the page opened, newest last. */
    logs(serverId: string): readonly ServerLogEntry[] {
      return logs.list(serverId);
    },

    /** The server's SDK client, connected now; throws when the server is unknown, switched off or unreachable. */
    async connectedClient(serverId: string): Promise<Client> {
      const entry = entryOf(serverId);
      if (!entry || !entry.config.enabled) throw new Error(`The server "${serverId}" is not available.`);
      return entry.connection.ensureConnected();
    },

    /** Reads a resource of a server (`resources/read`), for a resource link clicked in a result. Never throws. */
    async readResource(serverId: string, uri: string, signal?: AbortSignal): Promise<ResourceReading> {
      const entry = entryOf(serverId);
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

    /**
     * Starts an interactive OAuth sign-in: `navigate` receives the authorization URL (open it in the popup
     * the click opened, or redirect the page). Resolves once the person was sent there, or to the new
     * state when stored credentials sufficed.
     */
    signIn: async (serverId, navigate) => (await signIns()).signIn(serverId, navigate),

    /** Finishes a sign-in from the callback's query: checks the state, exchanges the code, connects. */
    completeSignIn: async (callback) => (await signIns()).complete(callback),

    /** Forgets a server's OAuth tokens and client registration. */
    signOut: async (serverId) => (await signIns()).signOut(serverId),

    subscribe(listener: (event: RegistryEvent) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async close(): Promise<void> {
      await Promise.all([...entries.values()].map((e) => e.connection.dispose()));
      entries.clear();
      listeners.clear();
    },
  };
  return registry;
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

function compileChecks(kit: ConnectionKit, catalog: ToolCatalog | undefined): Map<string, InputCheck> {
  return new Map(
    (catalog?.tools ?? []).map((tool) => [tool.name, kit.compileInputSchema(tool.name, tool.inputSchema)]),
  );
}
