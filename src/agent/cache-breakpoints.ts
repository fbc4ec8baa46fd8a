// Prompt-cache breakpoints of one request, placed so that each request reads what the one before it wrote.
// https://platform.claude.com/docs/en/build-with-claude/prompt-caching: at most 4 breakpoints; a breakpoint writes the
// prefix up to it, and a later request reads the longest written prefix that ends at one of its block boundaries
// within 20 blocks before one of its breakpoints. Thinking blocks cannot carry cache_control (extended-thinking docs).
import type { MessageParam, TextBlockParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';

const EPHEMERAL = { type: 'ephemeral' } as const;
/** The API's limit of cache_control blocks per request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/** The parts of a request that breakpoints go on. */
export interface CacheableRequest {
  readonly system?: string | TextBlockParam[];
  readonly tools?: ToolUnion[];
  readonly messages: MessageParam[];
}

type Block = Exclude<MessageParam['content'], string>[number];

const isCacheable = (block: Block): boolean =>
  block.type !== 'thinking' && block.type !== 'redacted_thinking' && !(block.type === 'text' && block.text === '');

/** The message with a breakpoint on its last block that may carry one (unchanged when none may). */
function markLastBlock(message: MessageParam): MessageParam {
  if (message.role !== 'user' && message.role !== 'assistant') return message;
  const content: Block[] =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...message.content];
  const at = content.findLastIndex(isCacheable);
  if (at < 0) return message;
  content[at] = { ...content[at], cache_control: EPHEMERAL } as Block;
  return { role: message.role, content };
}

/** Index of the user message before the last one: where the previous request of the thread ended. */
function previousEnd(messages: readonly MessageParam[]): number {
  const last = messages.length - 1;
  for (let i = last - 1; i >= 0; i--) if (messages[i]!.role === 'user') return i;
  return -1;
}

/**
 * The request with its breakpoints: one on the tools and system prompt (the system block, else the last tool that is in
 * the prompt; a deferred tool is not, and may not carry one), one on the newest message's last block (written for the
 * next request), and one where the previous request ended (read from the cache however many blocks came since).
 */
export function withCacheBreakpoints<T extends CacheableRequest>(request: T): T {
  const blocks: TextBlockParam[] | undefined =
    typeof request.system === 'string' ? [{ type: 'text', text: request.system }] : request.system;
  const system = blocks?.map((block, i, all) =>
    i === all.length - 1 ? { ...block, cache_control: EPHEMERAL } : block,
  );
  const lastPromptTool = system?.length ? -1 : (request.tools ?? []).findLastIndex((t) => !isDeferred(t));
  const tools = request.tools?.map((tool, i) => (i === lastPromptTool ? { ...tool, cache_control: EPHEMERAL } : tool));
  const marked = new Set([request.messages.length - 1, previousEnd(request.messages)]);
  const messages = request.messages.map((message, i) => (marked.has(i) ? markLastBlock(message) : message));
  return {
    ...request,
    ...(system ? { system } : {}),
    ...(tools ? { tools } : {}),
    messages,
  };
}

const isDeferred = (tool: ToolUnion): boolean => 'defer_loading' in tool && tool.defer_loading === true;
