import type { CodeCaller } from '../domain/code-execution';
import type { Approval } from '../domain/trace';
import type { ServerTrust } from '../domain/server-trust';
import type { ToolCallResult } from '../domain/tool-result';

/** A tool the agent may offer the model: where it lives, how the model names it, what it is. */
export interface AgentTool {
  readonly serverId: string;
  readonly serverName: string;
  /** The server's origin and auth kind now: an approval holds only for the identity it was given to. */
  readonly trust: ServerTrust;
  readonly toolName: string;
  readonly modelName: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly annotations?: {
    readonly readOnlyHint?: boolean;
    readonly destructiveHint?: boolean;
    readonly title?: string;
  };
  /** false: code the model writes (execute_code) may not call it (a per-tool setting beside enable/disable). */
  readonly isCallableFromCode?: false;
  /** The server comes from the deployer's app config: its annotations are trusted. A user-added server's are hints only. */
  readonly isFromTrustedServer?: boolean;
}

/** A tool definition as the Messages API takes it. */
export interface ModelToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly input_schema: Record<string, unknown>;
  readonly defer_loading?: boolean;
  readonly cache_control?: { readonly type: 'ephemeral' };
}

/** What tool search found, as the model and the trace see it. */
export interface ToolSearchHit {
  readonly tool: AgentTool;
  readonly score: number;
}

/** A tool_search call answered: what goes back to the model (text, or tool_reference blocks), and what was found. */
export interface ToolSearchOutcome {
  readonly query: string;
  readonly content: string | readonly { readonly type: 'tool_reference'; readonly tool_name: string }[];
  readonly isError: boolean;
  readonly hits: readonly ToolSearchHit[];
}

/** The tools of one model call, chosen by the tool-search layer. */
export interface CallTools {
  /** Tools the model may call in this call (pinned, loaded, preloaded, mentioned; or all when not deferred). */
  readonly tools: readonly AgentTool[];
  /** The client-side tool_search tool, when tools are deferred. */
  readonly searchTool?: ModelToolDefinition;
  /** Definitions to send as they are (anthropic mode: every thread tool with defer_loading). */
  readonly definitions?: readonly ModelToolDefinition[];
  readonly isDeferred: boolean;
}

/** The tool-search side of a turn; the agent never sees the registry or the index directly. */
export interface ToolChooser {
  /** Tools for the next model call of the turn; `requested` are tools found by tool_search earlier in the turn. */
  forCall(input: { readonly userText: string; readonly requested: readonly AgentTool[] }): Promise<CallTools>;
  /** Answers a tool_search call of the model within the thread's scope; the found tools count as loaded. */
  runSearch(input: unknown): Promise<ToolSearchOutcome>;
  readonly strategy: string;
  /** Every tool of the thread's enabled servers, to resolve names the model uses. */
  allTools(): readonly AgentTool[];
  /** Remembers tools as used in this thread (loaded set, least recently used dropped). */
  markUsed(tools: readonly AgentTool[]): Promise<void>;
}

/** Runs a tool on its server. Never throws. */
export type ToolRunner = (
  tool: AgentTool,
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<ToolCallResult>;

/** What the person is asked before a tool runs. */
export interface ApprovalRequest {
  readonly tool: AgentTool;
  readonly arguments: Record<string, unknown>;
  readonly toolUseId: string;
  /** Set when code the model wrote makes the call (execute_code): the card says so. */
  readonly caller?: CodeCaller;
}

/** Asks the person; resolves with their decision (the only source of approvals). */
export type AskApproval = (request: ApprovalRequest, signal: AbortSignal) => Promise<Approval>;
