import type { ServerConfig, ToolOverride } from './server-config';
import { trustOf, type ServerTrust } from './server-trust';
import type { ToolDefinition, ToolRef } from './tool-catalog';

/** The name of the search tool the model calls; MCP tools are named `mcp__…`, so it never collides. */
export const TOOL_SEARCH_NAME = 'tool_search';

/** What a tool says about itself (MCP tool annotations): hints for a person, trusted only from the deployer's servers. */
export interface ToolAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly title?: string;
}

/**
 * A tool as everything past the registry sees it (search, the turn, approvals, the UI): overrides applied, the name
 * the model uses, and who its server is now.
 */
export interface EffectiveTool extends ToolRef {
  readonly modelName: string;
  readonly serverName: string;
  readonly description: string;
  readonly definition: ToolDefinition;
  /** The server's origin and auth kind now: an approval holds only for the identity it was given to. */
  readonly trust: ServerTrust;
  /** The server comes from the deployer's app config: its annotations are trusted. A user-added server's are hints only. */
  readonly isFromTrustedServer: boolean;
  readonly annotations?: ToolAnnotations;
  /** false when code the model writes (execute_code) may not call the tool (a per-tool setting beside enable/disable). */
  readonly isCallableFromCode?: false;
  /** Set when the tool's input schema could not be compiled (arguments go unchecked). */
  readonly warning?: string;
}

/** A custom tool definition as the Messages API takes it in `tools` (the shape the agent sends). */
export interface CustomModelTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: Readonly<Record<string, unknown>>;
  /** Anthropic and server modes: the API keeps the tool out of the prompt until a `tool_reference` names it. */
  readonly defer_loading?: boolean;
  /** Programmatic tool calling: who may call the tool, the model itself ('direct') and/or Anthropic's code execution. */
  readonly allowed_callers?: readonly ('direct' | 'code_execution_20260120')[];
}

/** The API's own tool search tool (server mode): https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool */
export interface ServerSearchTool {
  readonly type: 'tool_search_tool_bm25_20251119' | 'tool_search_tool_regex_20251119';
  readonly name: 'tool_search_tool_bm25' | 'tool_search_tool_regex';
  readonly defer_loading?: never;
}

/** Anthropic's code execution tool, offered for programmatic tool calling (the thread's "code" setting is Anthropic). */
export interface CodeExecutionServerTool {
  readonly type: 'code_execution_20260120';
  readonly name: 'code_execution';
  readonly defer_loading?: never;
}

/** One entry of a request's `tools` (cache breakpoints are the adapter's: src/agent/cache-breakpoints.ts). */
export type ModelTool = CustomModelTool | ServerSearchTool | CodeExecutionServerTool;

/** The annotations of a listed tool, the fields the app reads, each only when it has the documented type. */
export function toolAnnotations(definition: ToolDefinition): ToolAnnotations | undefined {
  const raw = definition.annotations;
  if (!raw) return undefined;
  const { readOnlyHint, destructiveHint, title } = raw;
  return {
    ...(typeof readOnlyHint === 'boolean' ? { readOnlyHint } : {}),
    ...(typeof destructiveHint === 'boolean' ? { destructiveHint } : {}),
    ...(typeof title === 'string' ? { title } : {}),
  };
}

/** What one listed tool of a server becomes an EffectiveTool from (the registry and its fake build it the same way). */
export interface ToolSource {
  readonly config: ServerConfig;
  /** The server comes from the deployer's app config. */
  readonly isAppServer: boolean;
  readonly definition: ToolDefinition;
  /** The override in effect (the deployer's with the person's on top). */
  readonly override: ToolOverride | undefined;
  /** The name the model uses; undefined when the tool has none (a name clash the naming could not resolve). */
  readonly modelName: string | undefined;
  /** Why the tool's input schema could not be compiled, if so. */
  readonly warning?: string | undefined;
  /** `trustOf(config)`, when the caller has it already (a server's thousands of tools share one). */
  readonly trust?: ServerTrust;
}

/** The tool as everything past the registry sees it; undefined when it is switched off or has no model name. */
export function effectiveTool(source: ToolSource): EffectiveTool | undefined {
  const { config, definition, override, modelName, warning } = source;
  if (override?.enabled === false || !modelName) return undefined;
  const annotations = toolAnnotations(definition);
  return {
    serverId: config.id,
    toolName: definition.name,
    modelName,
    serverName: config.name,
    description: override?.description ?? definition.description ?? '',
    definition,
    trust: source.trust ?? trustOf(config),
    isFromTrustedServer: source.isAppServer,
    ...(annotations ? { annotations } : {}),
    ...(override?.callableFromCode === false ? { isCallableFromCode: false as const } : {}),
    ...(warning ? { warning } : {}),
  };
}
