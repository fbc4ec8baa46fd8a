// A hand-written Registry (src/mcp/registry-types.ts) in memory: servers with fixed tool lists, calls recorded and
// answered by a handler. It keeps the registry's own rules: a switched-off server or tool is never called, unknown
// tools and non-object arguments are refused, and tool names are the app's (`mcp__server__tool`).
import type { PromptListing, PromptReading } from '../../src/domain/prompts';
import { ValidationError, type AppError } from '../../src/domain/errors';
import { RelayUnreachableError } from '../../src/domain/mcp-errors';
import { ServerConfig, type ServerConfigInput } from '../../src/domain/server-config';
import type { ServerState } from '../../src/domain/server-status';
import { effectiveTool, type EffectiveTool } from '../../src/domain/tool';
import type { ToolDefinition, ToolRef } from '../../src/domain/tool-catalog';
import { layerToolOverride, ownEntry, type AppServerToolOverrides } from '../../src/domain/tool-overrides';
import { failedResult, type ToolCallResult } from '../../src/domain/tool-result';
import type { RegisteredServer, Registry, RegistryEvent, ServerScope } from '../../src/mcp/registry-types';
import { ToolNameMap } from '../../src/mcp/tool-naming';
import type { LogLevel, ServerLogEntry } from '../../src/domain/server-log';
import { ServerLogs } from '../../src/mcp/server-logs';
import type { ResourceReading } from '../../src/domain/tool-display';

interface FakeServer {
  config: ServerConfig;
  readonly scope: ServerScope;
  tools: ToolDefinition[];
  state?: ServerState;
}

/** One call that reached a server. */
export interface RecordedCall {
  readonly serverId: string;
  readonly toolName: string;
  readonly args: Record<string, unknown>;
}

export type CallHandler = (call: RecordedCall) => Promise<ToolCallResult> | ToolCallResult;

const CONNECTED: ServerState = { status: 'connected', transport: 'http' };
const echo: CallHandler = (call) => ({
  content: [{ type: 'text', text: `${call.toolName} ran` }],
  isError: false,
  durationMs: 1,
});

/** A tool definition with an object schema. */
export function toolDefinition(name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return { name, description: `The ${name} tool`, inputSchema: { type: 'object', properties: {} }, ...extra };
}

export class FakeRegistry implements Registry {
  readonly calls: RecordedCall[] = [];
  private readonly servers = new Map<string, FakeServer>();
  private readonly listeners = new Set<(event: RegistryEvent) => void>();
  /** The registry's own log store: the fake's servers send no messages, but the app's notes are kept as for real. */
  private readonly serverLogs = new ServerLogs();
  private appOverrides: Readonly<AppServerToolOverrides> = {};
  private names = new ToolNameMap([]);

  constructor(private readonly onCall: CallHandler = echo) {}

  /** Adds a server with its tools at once (as if it had connected and listed them). */
  async add(input: ServerConfigInput, tools: ToolDefinition[], scope: ServerScope = 'user'): Promise<ServerConfig> {
    const config = await this.register(input, scope);
    this.servers.get(config.id)!.tools = tools;
    this.rename();
    this.emit({ type: 'tools', serverId: config.id });
    return config;
  }

  /** The server's connection is in this state now (it went down, it needs a sign-in); connected by default. */
  setState(serverId: string, state: ServerState): void {
    const server = this.servers.get(serverId);
    if (!server) throw new Error(`no server ${serverId}`);
    server.state = state;
    this.emit({ type: 'status', serverId, state });
  }

  /** The server lists other tools (as after `notifications/tools/list_changed`). */
  setTools(serverId: string, tools: ToolDefinition[]): void {
    const server = this.servers.get(serverId);
    if (!server) throw new Error(`no server ${serverId}`);
    server.tools = tools;
    this.rename();
    this.emit({ type: 'tools', serverId });
  }

  async register(input: ServerConfigInput, scope: ServerScope): Promise<ServerConfig> {
    const config = ServerConfig.parse(input);
    if (this.servers.has(config.id))
      throw new ValidationError('Server', [{ path: 'id', message: `A server with id "${config.id}" already exists` }]);
    this.servers.set(config.id, { config, scope, tools: [] });
    this.emit({ type: 'registered', serverId: config.id });
    return config;
  }

  async update(input: ServerConfigInput): Promise<ServerConfig> {
    const config = ServerConfig.parse(input);
    const server = this.servers.get(config.id);
    if (!server)
      throw new ValidationError('Server', [{ path: 'id', message: `No server with id "${config.id}" is registered` }]);
    server.config = config;
    this.emit({ type: 'tools', serverId: config.id });
    return config;
  }

  async unregister(serverId: string): Promise<void> {
    if (!this.servers.delete(serverId)) return;
    this.serverLogs.clear(serverId);
    this.rename();
    this.emit({ type: 'unregistered', serverId });
  }

  list(): RegisteredServer[] {
    return [...this.servers.keys()].map((id) => this.get(id)!);
  }

  get(serverId: string): RegisteredServer | undefined {
    const server = this.servers.get(serverId);
    if (!server) return undefined;
    return {
      config: server.config,
      scope: server.scope,
      state: server.state ?? CONNECTED,
      catalog: { profileId: 'p', serverId, tools: server.tools, hash: 'h', fetchedAt: 0 },
      isCatalogStale: false,
      personalToolOverrides: this.personal(server),
    };
  }

  async connect(serverId: string): Promise<ServerState> {
    return this.servers.has(serverId) ? CONNECTED : { status: 'disconnected' };
  }

  async checkAgain(serverId: string): Promise<ServerState> {
    return this.connect(serverId);
  }

  /** Its tools are what the test last set: nothing to list again. */
  async relistTools(): Promise<void> {}

  async connectedClient(): Promise<never> {
    throw new Error('FakeRegistry has no MCP client; use a real server (test/fixtures) for resources.');
  }

  async testConnection(): Promise<never> {
    throw new Error('FakeRegistry does not test connections; use a real server (test/fixtures).');
  }

  async disconnect(): Promise<void> {}

  tools(serverIds?: readonly string[]): EffectiveTool[] {
    const ids = serverIds ?? [...this.servers.keys()];
    return ids.flatMap((id) => {
      const server = this.servers.get(id);
      return server && server.config.enabled ? this.effective(server) : [];
    });
  }

  toolWarnings(serverId: string): string[] {
    return this.tools([serverId]).flatMap((tool) => (tool.warning ? [tool.warning] : []));
  }

  setAppToolOverrides(overrides: Readonly<AppServerToolOverrides>): void {
    this.appOverrides = overrides;
    for (const [id, server] of this.servers) if (server.scope === 'app') this.emit({ type: 'tools', serverId: id });
  }

  private relay: string | undefined;

  relayUrl(): string | undefined {
    return this.relay;
  }

  /** Kept only: this fake has no connections to route. */
  async setRelayUrl(url: string | undefined): Promise<void> {
    this.relay = url;
  }

  /** This fake has no network: a relay set here never answers. */
  async checkRelay(): Promise<AppError | undefined> {
    return this.relay ? new RelayUnreachableError(this.relay) : undefined;
  }

  resolveToolName(modelName: string): ToolRef | undefined {
    return this.names.resolve(modelName);
  }

  async callTool(serverId: string, toolName: string, args: unknown): Promise<ToolCallResult> {
    const server = this.servers.get(serverId);
    if (!server || !server.config.enabled)
      return failedResult({ kind: 'server-unavailable', message: `The server "${serverId}" is not available.` }, 0);
    if (this.override(server, toolName)?.enabled === false)
      return failedResult({ kind: 'tool-disabled', message: `The tool "${toolName}" is disabled.` }, 0);
    if (!server.tools.some((t) => t.name === toolName))
      return failedResult(
        { kind: 'unknown-tool', message: `The server "${server.config.name}" has no tool "${toolName}".` },
        0,
      );
    const value = args ?? {};
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return failedResult({ kind: 'invalid-arguments', message: 'Tool arguments must be a JSON object.' }, 0);
    const call = { serverId, toolName, args: { ...value } };
    this.calls.push(call);
    return this.onCall(call);
  }

  /** The fake checks no arguments against the tools' schemas (the real registry's check has tests of its own). */
  async checkArguments(): Promise<string | undefined> {
    return undefined;
  }

  /** The fake's servers send no log messages: only the app's notes show. */
  logs(serverId: string): readonly ServerLogEntry[] {
    return this.serverLogs.list(serverId);
  }

  note(serverId: string, text: string, level: LogLevel = 'warning'): void {
    if (!this.servers.has(serverId)) return;
    this.serverLogs.note(serverId, text, level, Date.now());
    this.emit({ type: 'note', serverId });
  }

  /** The fake's servers have no resources: every read says so, as a real server's error would. */
  async readResource(serverId: string, uri: string): Promise<ResourceReading> {
    const name = this.servers.get(serverId)?.config.name ?? serverId;
    return { ok: false, message: `${name} could not read ${uri}: this fake server has no resources.` };
  }

  /** The fake's servers offer no prompts (as a server without the prompts capability lists none). */
  async listPrompts(serverId: string): Promise<PromptListing> {
    return this.servers.has(serverId)
      ? { ok: true, prompts: [] }
      : { ok: false, message: `${serverId} could not list its prompts: the server is not available` };
  }

  async getPrompt(serverId: string, name: string): Promise<PromptReading> {
    const server = this.servers.get(serverId)?.config.name ?? serverId;
    return { ok: false, message: `${server} could not give the prompt "${name}": this fake server has no prompts.` };
  }

  async completePromptArgument(): Promise<string[]> {
    return [];
  }

  async signIn(): Promise<never> {
    throw new Error('FakeRegistry does not sign in; use the OAuth test server (test/fixtures).');
  }

  async completeSignIn(): Promise<never> {
    throw new Error('FakeRegistry does not sign in; use the OAuth test server (test/fixtures).');
  }

  async signOut(): Promise<void> {}

  subscribe(listener: (event: RegistryEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.servers.clear();
    this.listeners.clear();
  }

  private emit(event: RegistryEvent): void {
    this.listeners.forEach((listener) => listener(event));
  }

  private rename(): void {
    this.names = new ToolNameMap(
      [...this.servers.values()].flatMap((s) => s.tools.map((t) => ({ serverId: s.config.id, toolName: t.name }))),
    );
  }

  private personal(server: FakeServer) {
    return server.scope === 'app' ? (ownEntry(this.appOverrides, server.config.id) ?? {}) : {};
  }

  private override(server: FakeServer, toolName: string) {
    return layerToolOverride(
      ownEntry(server.config.toolOverrides, toolName),
      ownEntry(this.personal(server), toolName),
    );
  }

  private effective(server: FakeServer): EffectiveTool[] {
    const { config } = server;
    return server.tools.flatMap((definition) => {
      const tool = effectiveTool({
        config,
        isAppServer: server.scope === 'app',
        definition,
        override: this.override(server, definition.name),
        modelName: this.names.nameOf({ serverId: config.id, toolName: definition.name }),
      });
      return tool ? [tool] : [];
    });
  }
}
