import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { AppError } from '../domain/errors';
import type { ServerConfig, ServerConfigInput, ToolOverride } from '../domain/server-config';
import type { ServerState } from '../domain/server-status';
import type { EffectiveTool } from '../domain/tool';
import type { ToolCatalog, ToolRef } from '../domain/tool-catalog';
import type { AppServerToolOverrides } from '../domain/tool-overrides';
import type { ToolCallResult } from '../domain/tool-result';
import type { ResourceReading } from '../domain/tool-display';
import type { LogLevel, ServerLogEntry } from '../domain/server-log';
import type { PromptListing, PromptReading } from '../domain/prompts';
import type { ConnectionTest } from './connection-test';
import type { CallOptions } from './server-connection-deps';
import type { PendingSecrets } from './server-headers';
import type { SignInCallback } from './sign-in';

export type { EffectiveTool };

export type ServerScope = 'app' | 'user';

export interface RegisteredServer {
  readonly config: ServerConfig;
  readonly scope: ServerScope;
  readonly state: ServerState;
  readonly catalog?: ToolCatalog;
  /** The catalog is from an earlier connection; the server is not connected now. */
  readonly isCatalogStale: boolean;
  /** For an app server, the person's own tool overrides (applied on top of `config.toolOverrides`); empty for a user server. */
  readonly personalToolOverrides: Readonly<Record<string, ToolOverride>>;
}

export type RegistryEvent =
  | {
      readonly type: 'registered' | 'unregistered' | 'tools' | 'log' | 'note' | 'prompts' | 'resources';
      readonly serverId: string;
    }
  | { readonly type: 'status'; readonly serverId: string; readonly state: ServerState };

/** The MCP registry: servers added, changed and removed at runtime, their catalogs, and tool calls. */
export interface Registry {
  /**
   * Adds a server without connecting; its stored catalog (if any) is searchable at once. With `whenIdle` it is
   * background work: awaited before reading the stored catalog and before each step of taking it in, and the server
   * takes its id (and is listed) only once its tools are in.
   */
  register(
    input: ServerConfigInput,
    scope: ServerScope,
    options?: { readonly whenIdle?: () => Promise<void> },
  ): Promise<ServerConfig>;
  /** Changes a server's config; a new URL, transport or auth reconnects on next use. */
  update(input: ServerConfigInput): Promise<ServerConfig>;
  /** Removes a server: closes its connection, removes its catalog and clears its credentials. */
  unregister(serverId: string): Promise<void>;
  list(): RegisteredServer[];
  get(serverId: string): RegisteredServer | undefined;
  /** Connects now (the "Test connection" action); resolves to the resulting state, never throws. */
  connect(serverId: string): Promise<ServerState>;
  /** "Check again": a connected server's tools (and prompts) are read again; any other server connects. Never throws. */
  checkAgain(serverId: string): Promise<ServerState>;
  /**
   * Lists a connected server's tools again (they may have changed without it saying so); nothing otherwise. One
   * listing per server at a time (shared), none again within `relistOnUnknownToolMs`; resolves at once when `signal`
   * aborts (the listing finishes in the background). Never throws.
   */
  relistTools(serverId: string, signal?: AbortSignal): Promise<void>;
  /** Connects to a config once without registering or storing it, lists its tools and closes. */
  testConnection(input: ServerConfigInput, pending?: PendingSecrets): Promise<ConnectionTest>;
  disconnect(serverId: string): Promise<void>;
  /** The enabled tools of the given servers (all servers when omitted), with overrides applied. */
  tools(serverIds?: readonly string[]): EffectiveTool[];
  /** What `tools([serverId])` would say in the tools' warnings, without building them (cheap at thousands of tools). */
  toolWarnings(serverId: string): string[];
  /** Sets the person's own tool overrides for the app's servers, applied on top of each app server's config. */
  setAppToolOverrides(overrides: Readonly<AppServerToolOverrides>): void;
  /** The CORS relay in effect (issue #19). */
  relayUrl(): string | undefined;
  /** Sets the CORS relay; servers routed through it reconnect through the new one on next use. */
  setRelayUrl(url: string | undefined): Promise<void>;
  /** Asks the relay in effect whether it answers and serves this page (see checkRelay); undefined when it does. */
  checkRelay(): Promise<AppError | undefined>;
  /** Maps a model tool name back to its server and tool. */
  resolveToolName(modelName: string): ToolRef | undefined;
  /** Calls a tool after checking its server is enabled, the tool known and not disabled, the arguments valid. Never throws. */
  callTool(serverId: string, toolName: string, args: unknown, options?: CallOptions): Promise<ToolCallResult>;
  /** Why the tool's input schema refuses these arguments (the message a call would fail with), or undefined. */
  checkArguments(serverId: string, toolName: string, args: Record<string, unknown>): Promise<string | undefined>;
  /** The server's log messages (`notifications/message`) and the app's notes about it since the page opened, newest last. */
  logs(serverId: string): readonly ServerLogEntry[];
  /**
   * Adds the app's own note to a registered server's log (a request it declined, a flood it held back), under the app's
   * logger name; a `note` event follows. Nothing for a server that is not registered.
   */
  note(serverId: string, text: string, level?: LogLevel): void;
  /** The server's SDK client, connected now (for resources and completions, see server-resources.ts); throws when it cannot connect. */
  connectedClient(serverId: string): Promise<Client>;
  /** Reads a resource of a server (`resources/read`), for a resource link clicked in a result. Never throws. */
  readResource(serverId: string, uri: string, signal?: AbortSignal): Promise<ResourceReading>;
  /** The server's prompts (prompts/list, every page). Never throws. */
  listPrompts(serverId: string): Promise<PromptListing>;
  /** A prompt's messages with its arguments (prompts/get). Never throws. */
  getPrompt(serverId: string, name: string, args: Record<string, string>): Promise<PromptReading>;
  /** Values the server suggests for a prompt's argument (completion/complete); none on any failure. */
  completePromptArgument(
    serverId: string,
    promptName: string,
    argument: { readonly name: string; readonly value: string },
    context: Record<string, string>,
  ): Promise<string[]>;
  /** Starts an interactive OAuth sign-in: `navigate` receives the authorization URL. */
  signIn(serverId: string, navigate: (url: URL) => void | Promise<void>): Promise<'redirected' | ServerState>;
  /** Finishes a sign-in from the callback's query: checks the state, exchanges the code, connects. */
  completeSignIn(callback: SignInCallback): Promise<{ serverId: string; state: ServerState }>;
  /** Forgets a server's OAuth tokens and client registration. */
  signOut(serverId: string): Promise<void>;
  subscribe(listener: (event: RegistryEvent) => void): () => void;
  close(): Promise<void>;
}
