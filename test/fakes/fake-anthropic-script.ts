// What a test scripts the fake Anthropic API to answer: text, tool calls, broken tool JSON, code, or an HTTP error.
import type { ScriptedCode } from './fake-anthropic-programmatic';

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal';
export type ApiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'billing_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'timeout_error'
  | 'api_error'
  | 'overloaded_error';

/** Token counts to report; unset ones are estimated (input from the request size, output from the content). */
export interface UsageOverride {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

/** Options every content turn takes. A "chunk" is one content_block_delta event. */
export interface TurnOptions {
  /** A thinking block (thinking_delta chunks, then a signature_delta) before the other content. */
  thinking?: string;
  usage?: UsageOverride;
  stopReason?: StopReason;
  /** Pause before each delta. */
  delayMs?: number;
  /** Destroy the socket after this many deltas: no message_delta, no message_stop. */
  cutAfterChunks?: number;
  /** Stop sending after this many deltas and keep the connection open until the client aborts or stop(). */
  stallAfterChunks?: number;
  /** After this many deltas wait until `until` settles, then go on: a test acts mid-stream without racing a timer. */
  holdAfterChunks?: { afterChunks: number; until: Promise<unknown> };
  /** After this many deltas send an `event: error` frame (as the API does when it overloads mid-stream) and end. */
  midStreamError?: { afterChunks: number; type?: ApiErrorType; message?: string };
  /** The model named in the answer; defaults to the request's model. */
  model?: string;
  /**
   * The model calls the API's own tool search tool first (server_tool_use), and the fake answers it in the same
   * message (tool_search_tool_result) by searching the request's deferred tools (fake-anthropic-tool-search.ts).
   */
  serverToolSearch?: { query: string };
}

export interface TextTurn extends TurnOptions {
  /** One string is one delta; an array is one delta per element. */
  text: string | string[];
}

export interface ScriptedToolUse {
  id?: string;
  name: string;
  input: Record<string, unknown>;
  /** How many input_json_delta pieces JSON.stringify(input) is split into (default 3). */
  chunks?: number;
}

/** stop_reason tool_use; several toolUses are parallel tool calls. Optional text comes first, as models do. */
export interface ToolUseTurn extends TurnOptions {
  toolUses: ScriptedToolUse[];
  text?: string | string[];
}

/**
 * A tool_use whose streamed partial_json is broken. The default `{"query": "abc` is truncated: the SDK's partial
 * JSON parser silently turns it into `{}`. Non-JSON such as `{"query": abc}` makes the SDK's stream fail.
 * (The real API truncates tool input when it hits max_tokens: set stopReason 'max_tokens' for that case.)
 */
export interface InvalidToolJsonTurn extends TurnOptions {
  invalidToolJson: { name: string; id?: string; partialJson?: string };
  text?: string | string[];
}

export interface ScriptedError {
  status: number;
  /** Defaults from the status (401 authentication_error, 429 rate_limit_error, 529 overloaded_error, …). */
  type?: ApiErrorType;
  message?: string;
  /** Sent as the retry-after header (seconds), which the SDK obeys before retrying. */
  retryAfterSeconds?: number;
}

/** An HTTP error answer, sent before any streaming, like the real API. */
export interface ErrorTurn {
  error: ScriptedError;
}

/**
 * Programmatic tool calling (fake-anthropic-programmatic.ts): the model writes code that the API runs in its code
 * execution container; the code calls the client's tools (tool_use with `caller`) or ends (code_execution_tool_result
 * and then the text).
 */
export interface CodeTurn extends TurnOptions {
  code: ScriptedCode;
  text?: string | string[];
}

export type Turn = TextTurn | ToolUseTurn | InvalidToolJsonTurn | CodeTurn | ErrorTurn;

export type ContentTurn = Exclude<Turn, ErrorTurn>;
