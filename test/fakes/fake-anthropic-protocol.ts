// The wire shapes of the fake Anthropic API: planned blocks → SSE frames or a JSON Message, and error bodies.
import { defaultStopReason, planBlocks, usageOf, type AnswerContext } from './fake-anthropic-blocks';
import type { ApiErrorType, ContentTurn } from './fake-anthropic-script';

export type * from './fake-anthropic-script';
export type { AnswerContext } from './fake-anthropic-blocks';

/** One SSE frame; `delta` marks content_block_delta frames, the unit of cutAfterChunks and friends. */
export interface Frame {
  event: string;
  data: Record<string, unknown>;
  isDelta: boolean;
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
        ...(usage.iterations ? { iterations: usage.iterations } : {}),
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
