// The content blocks a scripted turn becomes (thinking, text, tool calls, the API's tool search and code
// execution, compaction) and the usage the answer reports, before they are streamed or sent whole.
import type { CacheUsage } from './fake-anthropic-cache';
import type { CodeRun, ScriptedCode } from './fake-anthropic-programmatic';
import type { ContentTurn, StopReason } from './fake-anthropic-script';
import { findToolSearchTool, runToolSearch, type ToolSearchResultContent } from './fake-anthropic-tool-search';

/** One planned content block, with the pieces (deltas) it streams in. */
export type Block =
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

export interface AnswerContext {
  messageId: string;
  model: string;
  /** The request's input tokens split as the prompt cache accounted them (fake-anthropic-cache.ts). */
  cache: CacheUsage;
  nextToolId: () => string;
  /** The request's `tools`, for the API's own tool search. */
  tools: readonly unknown[];
  /**
   * The server compacted the context before answering: the compaction block comes first (compaction docs), and the
   * summary step read `inputTokens` (the whole context it closed).
   */
  compaction?: { content: string; encrypted_content: string; inputTokens?: number };
  /** The code run this answer belongs to (a CodeTurn), with its container. */
  codeRun?: CodeRun;
  /** The container the answer names (programmatic tool calling). */
  container?: { id: string; expires_at: string };
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

/** The blocks of `turn`'s answer, in the order the real API sends them. */
export function planBlocks(turn: ContentTurn, ctx: AnswerContext): Block[] {
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

/** The stop reason of `turn`'s answer when the script sets none. */
export function defaultStopReason(turn: ContentTurn): StopReason {
  if ('code' in turn) return turn.code.calls?.length ? 'tool_use' : 'end_turn';
  return 'toolUses' in turn || 'invalidToolJson' in turn ? 'tool_use' : 'end_turn';
}

/** The usage `turn`'s answer reports: the script's counts, else the prompt cache's and an estimate from the content. */
export function usageOf(turn: ContentTurn, ctx: AnswerContext, blocks: Block[]) {
  // A compaction block's tokens are reported in usage.iterations, not in the top-level counts (BetaIterationsUsage).
  const outputChars = blocks
    .filter((block) => block.type !== 'compaction')
    .reduce((sum, block) => sum + block.chunks.join('').length, 0);
  const cacheCreation = turn.usage?.cache_creation_input_tokens ?? ctx.cache.cache_creation_input_tokens;
  const counts = {
    input_tokens: turn.usage?.input_tokens ?? ctx.cache.input_tokens,
    cache_creation_input_tokens: cacheCreation,
    cache_read_input_tokens: turn.usage?.cache_read_input_tokens ?? ctx.cache.cache_read_input_tokens,
    output_tokens: turn.usage?.output_tokens ?? Math.max(1, Math.ceil(outputChars / 4)),
  };
  return {
    ...counts,
    cacheCreation: { ephemeral_5m_input_tokens: cacheCreation, ephemeral_1h_input_tokens: 0 },
    ...(ctx.compaction ? { iterations: compactionIterations(ctx.compaction, counts, ctx.model) } : {}),
  };
}

/**
 * usage.iterations of an answer the server compacted: the summary step (its tokens are billed but not in the
 * top-level counts: "A `compaction` entry's tokens are not included in the top-level `usage` fields"), then the answer
 * itself, whose counts are the top-level ones. The fake's summary step reads the whole closed context, uncached, and
 * writes the summary.
 */
function compactionIterations(
  compaction: NonNullable<AnswerContext['compaction']>,
  answer: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens: number;
    cache_creation_input_tokens: number;
  },
  model: string,
) {
  const summary = {
    input_tokens: compaction.inputTokens ?? 0,
    output_tokens: Math.ceil(compaction.content.length / 4),
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
  };
  return [
    { type: 'compaction', ...summary, cache_creation: null },
    { type: 'message', ...answer, cache_creation: null, model },
  ];
}
