import type { ServerConfig, ToolOverride } from '../domain/server-config';
import type { ServerState } from '../domain/server-status';
import type { ToolCatalog, ToolDefinition, ToolRef } from '../domain/tool-catalog';

export type ServerScope = 'app' | 'user';

/** A tool as everything downstream sees it: overrides applied, with the name the model uses. */
export interface EffectiveTool extends ToolRef {
  readonly modelName: string;
  readonly serverName: string;
  readonly description: string;
  readonly definition: ToolDefinition;
  /** false when code the model writes (execute_code) may not call the tool (a per-tool setting). */
  readonly isCallableFromCode?: false;
  /** Set when the tool's input schema could not be compiled (arguments go unchecked). */
  readonly warning?: string;
}

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
  | { readonly type: 'registered' | 'unregistered' | 'tools'; readonly serverId: string }
  | { readonly type: 'status'; readonly serverId: string; readonly state: ServerState };
