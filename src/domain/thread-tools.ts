// The contract of a thread's tools: the only way a turn (the model, code it runs, an app's frame) reaches a tool.
// Declared here so the agent can depend on it; the implementation is src/turns/thread-tools.ts.
import type { EffectiveTool, ModelTool } from './tool';
import type { ToolCallResult, ToolProgress } from './tool-result';
import type { CallToolSearchOverrides } from './tool-search-settings';
import type { Approval, ToolCallTrace, ToolSearchTrace } from './trace';

/** Who asks for a tool call: the model's own tool_use, code the model runs (inside a tool call), or an app's frame. */
export type ToolCaller =
  | { readonly kind: 'model' }
  | { readonly kind: 'code'; readonly parentToolUseId: string }
  | { readonly kind: 'app'; readonly serverId: string };

/** One tool call as a caller asks for it. */
export interface ToolCallRequest {
  /** The tool's name as the model knows it (`mcp__server__tool`). */
  readonly modelName: string;
  /** The arguments as given: anything but a JSON object is refused. */
  readonly input: unknown;
  readonly toolUseId: string;
  readonly signal: AbortSignal;
  /** The model when omitted. */
  readonly caller?: ToolCaller;
  /** Receives the server's progress notifications while the call runs. */
  readonly onProgress?: (progress: ToolProgress) => void;
}

/**
 * How a call ended. done: the tool ran and answered (its result may still be an error the tool reported);
 * failed: the call was made and failed (connection, timeout, invalid arguments the server refused);
 * refused: a rule kept it from being made (not in this thread, not loaded, switched off, moved); denied: the person said no.
 */
export type ToolCallStatus = 'done' | 'failed' | 'refused' | 'denied';

/** What a call gives back, always (never thrown): the result for the caller, and its trace entry. */
export interface ToolCallOutcome {
  readonly status: ToolCallStatus;
  readonly result: ToolCallResult;
  readonly trace: ToolCallTrace;
  /** The tool, once resolved. */
  readonly tool?: EffectiveTool;
}

/** The tools of one model call. */
export interface CallTools {
  /** The request's `tools`, in the order sent (the search tool included when tools are deferred). */
  readonly definitions: readonly ModelTool[];
  /** The thread tools this call offers the model (in Anthropic mode all of them, most deferred). */
  readonly tools: readonly EffectiveTool[];
  readonly isDeferred: boolean;
}

/** What tool search found, as the model and the trace see it. */
export interface ToolSearchHit {
  readonly tool: EffectiveTool;
  readonly score: number;
}

/** A tool_search call answered: what goes back to the model (text, or tool_reference blocks), and what was found. */
export interface ToolSearchOutcome {
  readonly query: string;
  readonly content: string | readonly { readonly type: 'tool_reference'; readonly tool_name: string }[];
  readonly isError: boolean;
  readonly hits: readonly ToolSearchHit[];
  readonly trace: ToolSearchTrace;
}

/**
 * The tools of one thread during one turn. The thread's enabled servers (read on every use: the person may switch
 * one off mid-turn), disabled tools, the server-trust check, approvals and the trace are applied here, once, for
 * every caller.
 */
export interface ThreadTools {
  /** Every tool the thread may use now (enabled servers, tools not disabled). */
  list(): readonly EffectiveTool[];
  /** The tools for the next model call of the turn (tool search: pinned, loaded, found, preloaded, mentioned). */
  forCall(input: {
    readonly userText: string;
    /** The call tier of the tool-search settings: wins over the thread's, the profile's and the app's. */
    readonly toolSearch?: CallToolSearchOverrides;
  }): Promise<CallTools>;
  /** The thread's tool the model knows by this name, or undefined. */
  resolve(modelName: string): EffectiveTool | undefined;
  /** Why the thread has no tool by this name: none exists, its server is off in the thread, or it is switched off. */
  whyUnavailable(modelName: string): string;
  /** Resolves, permits, asks approval when the policy says so, calls and traces one tool call. Never throws. */
  call(request: ToolCallRequest): Promise<ToolCallOutcome>;
  /** Answers the model's tool_search within the thread's scope; found tools are offered in the turn's next call. Never throws. */
  search(input: unknown): Promise<ToolSearchOutcome>;
}

/** What the person is asked before a tool runs. */
export interface ApprovalRequest {
  readonly tool: EffectiveTool;
  readonly arguments: Record<string, unknown>;
  readonly toolUseId: string;
  /** Who asks: a card can say "called from code" or name the app. */
  readonly caller: ToolCaller;
  /** Set when the tool was allowed before and its definition changed since: what changed, in words. */
  readonly definitionChange?: readonly string[];
}

/** Asks the person; resolves with their decision (the only source of approvals). */
export type AskApproval = (request: ApprovalRequest, signal: AbortSignal) => Promise<Approval>;
