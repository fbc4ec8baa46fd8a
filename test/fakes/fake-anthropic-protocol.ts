// The wire shapes of the fake Anthropic API: scripted turns → SSE frames or a JSON Message, and error bodies.
import type { CacheUsage } from './fake-anthropic-cache';
import { findToolSearchTool, runToolSearch, type ToolSearchResultContent } from './fake-anthropic-tool-search';
import type { CodeRun, ScriptedCode } from './fake-anthropic-programmatic';

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

type Block =
  | { type: 'thinking'; chunks: string[]; signature: string }
  | { type: 'server_tool_use'; id: string; name: string; chunks: string[]; input: Record<string, unknown> }
  | { type: 'tool_search_tool_result'; tool_use_id: string; content: ToolSearchResultContent; chunks: [] }
  | { type: 'text'; chunks: string[] }
  | {
      type: 'tool_use';
      id: string;
      name: string;
      chunks: string[];
      input: Record<string, unknown>;
      caller?: { type: string; tool_id: string };
    }
  | { type: 'code_execution_tool_result'; tool_use_id: string; content: Record<string, unknown>; chunks: [] }
  | { type: 'compaction'; chunks: string[]; encrypted: string };

export type ContentTurn = Exclude<Turn, ErrorTurn>;

/** One SSE frame; `delta` marks content_block_delta frames, the unit of cutAfterChunks and friends. */
export interface Frame {
  event: string;
  data: Record<string, unknown>;
  isDelta: boolean;
}

export interface AnswerContext {
  messageId: string;
  model: string;
  /** The request's input tokens split as the prompt cache accounted them (fake-anthropic-cache.ts). */
  cache: CacheUsage;
  nextToolId: () => string;
  /** The request's `tools`, for the API's own tool search. */
  tools: readonly unknown[];
  /** The server compacted the context before answering: the compaction block comes first (compaction docs). */
  compaction?: { content: string; encrypted_content: string };
  /** The code run this answer belongs to (a CodeTurn), with its container. */
  codeRun?: CodeRun;
  /** The container the answer names (programmatic tool calling). */
  container?: { id: string; expires_at: string };
}

const DEFAULT_ERROR_TYPES: Record<number, ApiErrorType> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};
const DEFAULT_ERROR_MESSAGES: Partial<Record<ApiErrorType, string>> = {
  authentication_error: 'invalid x-api-key',
  permission_error: 'Your API key does not have permission to use the specified resource.',
  rate_limit_error: 'Number of request tokens has exceeded your per-minute rate limit.',
  api_error: 'Internal server error',
  overloaded_error: 'Overloaded',
};

export function errorType(status: number): ApiErrorType {
  return DEFAULT_ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** `{type:'error', error:{type, message}, request_id}`, the body of every API error. */
export function errorBody(type: ApiErrorType, message: string | undefined, requestId: string): Record<string, unknown> {
  return {
    type: 'error',
    error: { type, message: message ?? DEFAULT_ERROR_MESSAGES[type] ?? type },
    request_id: requestId,
  };
}

/** Splits `text` into `count` pieces of about the same length (fewer if the text is shorter). */
export function splitEven(text: string, count: number): string[] {
  const n = Math.max(1, Math.min(Math.floor(count), text.length));
  const size = Math.ceil(text.length / n);
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces.length > 0 ? pieces : [''];
}

const asChunks = (text: string | string[] | undefined): string[] =>
  text === undefined ? [] : typeof text === 'string' ? [text] : text;

function planBlocks(turn: ContentTurn, ctx: AnswerContext): Block[] {
  const blocks: Block[] = [];
  if (ctx.compaction)
    blocks.push({ type: 'compaction', chunks: [ctx.compaction.content], encrypted: ctx.compaction.encrypted_content });
  if (turn.thinking !== undefined) {
    const signature = Buffer.from(`fake-signature:${turn.thinking}`).toString('base64');
    blocks.push({ type: 'thinking', chunks: splitEven(turn.thinking, 2), signature });
  }
  if (turn.serverToolSearch) blocks.push(...serverSearchBlocks(turn.serverToolSearch.query, ctx));
  const text = asChunks(turn.text);
  if ('code' in turn) {
    blocks.push(...codeBlocks(turn.code, ctx));
    const isEnding = !turn.code.calls?.length;
    if (text.length > 0) blocks.splice(isEnding ? blocks.length : 0, 0, { type: 'text', chunks: text });
    return blocks;
  }
  if (text.length > 0) blocks.push({ type: 'text', chunks: text });
  if ('toolUses' in turn) {
    for (const use of turn.toolUses) {
      const json = JSON.stringify(use.input);
      blocks.push({
        type: 'tool_use',
        id: use.id ?? ctx.nextToolId(),
        name: use.name,
        chunks: splitEven(json, use.chunks ?? 3),
        input: use.input,
      });
    }
  }
  if ('invalidToolJson' in turn) {
    const { name, id, partialJson = '{"query": "abc' } = turn.invalidToolJson;
    blocks.push({ type: 'tool_use', id: id ?? ctx.nextToolId(), name, chunks: splitEven(partialJson, 2), input: {} });
  }
  return blocks;
}

/** The model's call of the request's tool search tool and the API's answer to it. */
function serverSearchBlocks(query: string, ctx: AnswerContext): Block[] {
  const tool = findToolSearchTool(ctx.tools);
  if (!tool) throw new Error('the script has the model call the tool search tool, but the request has none');
  const id = ctx.nextToolId().replace('toolu_', 'srvtoolu_');
  const input = { query };
  return [
    { type: 'server_tool_use', id, name: tool.name, chunks: splitEven(JSON.stringify(input), 2), input },
    {
      type: 'tool_search_tool_result',
      tool_use_id: id,
      content: runToolSearch(ctx.tools, tool.type, query),
      chunks: [],
    },
  ];
}

/** The model's code (server_tool_use), the calls it makes (tool_use with caller) or its end (its output). */
function codeBlocks(code: ScriptedCode, ctx: AnswerContext): Block[] {
  const run = ctx.codeRun;
  if (!run) throw new Error('a code turn needs a code run (the fake starts one when the turn has code.source)');
  const blocks: Block[] = [];
  if (code.source !== undefined) {
    const input = { code: code.source };
    blocks.push({
      type: 'server_tool_use',
      id: run.toolId,
      name: 'code_execution',
      chunks: splitEven(JSON.stringify(input), 2),
      input,
    });
  }
  for (const call of code.calls ?? []) {
    const id = call.id ?? ctx.nextToolId();
    run.callIds.add(id);
    const json = JSON.stringify(call.input);
    blocks.push({
      type: 'tool_use',
      id,
      name: call.name,
      chunks: splitEven(json, 2),
      input: call.input,
      caller: { type: run.type, tool_id: run.toolId },
    });
  }
  if (!code.calls?.length)
    blocks.push({
      type: 'code_execution_tool_result',
      tool_use_id: run.toolId,
      content: {
        type: 'code_execution_result',
        stdout: code.stdout ?? '',
        stderr: code.stderr ?? '',
        return_code: code.returnCode ?? 0,
        content: [],
      },
      chunks: [],
    });
  return blocks;
}

function defaultStopReason(turn: ContentTurn): StopReason {
  if ('code' in turn) return turn.code.calls?.length ? 'tool_use' : 'end_turn';
  return 'toolUses' in turn || 'invalidToolJson' in turn ? 'tool_use' : 'end_turn';
}

function usageOf(turn: ContentTurn, ctx: AnswerContext, blocks: Block[]) {
  // A compaction block's tokens are reported in usage.iterations, not in the top-level counts (BetaIterationsUsage).
  const outputChars = blocks
    .filter((block) => block.type !== 'compaction')
    .reduce((sum, block) => sum + block.chunks.join('').length, 0);
  const cacheCreation = turn.usage?.cache_creation_input_tokens ?? ctx.cache.cache_creation_input_tokens;
  return {
    input_tokens: turn.usage?.input_tokens ?? ctx.cache.input_tokens,
    cache_creation_input_tokens: cacheCreation,
    cache_read_input_tokens: turn.usage?.cache_read_input_tokens ?? ctx.cache.cache_read_input_tokens,
    output_tokens: turn.usage?.output_tokens ?? Math.max(1, Math.ceil(outputChars / 4)),
    cacheCreation: { ephemeral_5m_input_tokens: cacheCreation, ephemeral_1h_input_tokens: 0 },
  };
}

function messageShell(turn: ContentTurn, ctx: AnswerContext) {
  return { id: ctx.messageId, type: 'message', role: 'assistant', model: turn.model ?? ctx.model };
}

/** The frames of a streamed answer, in the order the real API sends them. */
export function streamFrames(turn: ContentTurn, ctx: AnswerContext): Frame[] {
  const blocks = planBlocks(turn, ctx);
  const usage = usageOf(turn, ctx, blocks);
  const frame = (event: string, data: Record<string, unknown>, isDelta = false): Frame => ({
    event,
    data: { type: event, ...data },
    isDelta,
  });
  const delta = (index: number, value: Record<string, unknown>) =>
    frame('content_block_delta', { index, delta: value }, true);
  const frames: Frame[] = [
    frame('message_start', {
      message: {
        ...messageShell(turn, ctx),
        content: [],
        container: null,
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input_tokens,
          cache_creation_input_tokens: usage.cache_creation_input_tokens,
          cache_read_input_tokens: usage.cache_read_input_tokens,
          cache_creation: usage.cacheCreation,
          output_tokens: 1,
          service_tier: 'standard',
        },
      },
    }),
  ];
  const start = (index: number, contentBlock: Record<string, unknown>) => {
    frames.push(frame('content_block_start', { index, content_block: contentBlock }));
    if (index === 0) frames.push(frame('ping', {}));
  };
  blocks.forEach((block, index) => {
    if (block.type === 'thinking') {
      start(index, { type: 'thinking', thinking: '', signature: '' });
      for (const piece of block.chunks) frames.push(delta(index, { type: 'thinking_delta', thinking: piece }));
      frames.push(delta(index, { type: 'signature_delta', signature: block.signature }));
    } else if (block.type === 'compaction') {
      // https://platform.claude.com/docs/en/build-with-claude/compaction: one compaction_delta carries the whole summary.
      start(index, { type: 'compaction', content: null, encrypted_content: null });
      frames.push(
        delta(index, { type: 'compaction_delta', content: block.chunks.join(''), encrypted_content: block.encrypted }),
      );
    } else if (block.type === 'text') {
      start(index, { type: 'text', text: '' });
      for (const piece of block.chunks) frames.push(delta(index, { type: 'text_delta', text: piece }));
    } else if (block.type === 'server_tool_use') {
      start(index, { type: 'server_tool_use', id: block.id, name: block.name, input: {} });
      for (const piece of block.chunks) frames.push(delta(index, { type: 'input_json_delta', partial_json: piece }));
    } else if (block.type === 'tool_search_tool_result' || block.type === 'code_execution_tool_result') {
      // A server tool's result comes whole in its content_block_start, with no deltas.
      start(index, { type: block.type, tool_use_id: block.tool_use_id, content: block.content });
    } else {
      start(index, {
        type: 'tool_use',
        id: block.id,
        name: block.name,
        input: {},
        ...(block.caller ? { caller: block.caller } : {}),
      });
      for (const piece of block.chunks) frames.push(delta(index, { type: 'input_json_delta', partial_json: piece }));
    }
    frames.push(frame('content_block_stop', { index }));
  });
  frames.push(
    frame('message_delta', {
      delta: {
        stop_reason: turn.stopReason ?? defaultStopReason(turn),
        stop_sequence: null,
        ...(ctx.container ? { container: ctx.container } : {}),
      },
      usage: {
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        output_tokens: usage.output_tokens,
      },
    }),
    frame('message_stop', {}),
  );
  return frames;
}

/** The whole Message, for `stream: false`. */
export function jsonMessage(turn: ContentTurn, ctx: AnswerContext): Record<string, unknown> {
  const blocks = planBlocks(turn, ctx);
  const usage = usageOf(turn, ctx, blocks);
  const content = blocks.map((block) => {
    if (block.type === 'thinking')
      return { type: 'thinking', thinking: block.chunks.join(''), signature: block.signature };
    if (block.type === 'text') return { type: 'text', text: block.chunks.join('') };
    if (block.type === 'tool_search_tool_result' || block.type === 'code_execution_tool_result')
      return { type: block.type, tool_use_id: block.tool_use_id, content: block.content };
    if (block.type === 'tool_use')
      return {
        type: block.type,
        id: block.id,
        name: block.name,
        input: block.input,
        ...(block.caller ? { caller: block.caller } : {}),
      };
    if (block.type === 'compaction')
      return { type: 'compaction', content: block.chunks.join(''), encrypted_content: block.encrypted };
    return { type: block.type, id: block.id, name: block.name, input: block.input };
  });
  const { cacheCreation, ...counts } = usage;
  return {
    ...messageShell(turn, ctx),
    content,
    container: ctx.container ?? null,
    stop_reason: turn.stopReason ?? defaultStopReason(turn),
    stop_sequence: null,
    usage: { ...counts, cache_creation: cacheCreation, service_tier: 'standard' },
  };
}

/** `event: X` + `data: {json}` + blank line: the SDK skips frames without an `event:` line. */
export function sseText(frame: Frame): string {
  return `event: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`;
}
