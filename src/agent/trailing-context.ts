// Text that changes between requests without being part of the conversation (what MCP Apps report to the model) goes
// after the cached part of the request. The API caches by exact prefix in the order tools, system, messages
// (https://platform.claude.com/docs/en/build-with-claude/prompt-caching), so such text in the system prompt would make
// every later block a miss each time it changed. Placed after the newest user message's breakpoint it is read fresh
// in every request, and what the requests before wrote is still read back.
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';

type Block = Exclude<MessageParam['content'], string>[number];

/**
 * Whether `message` holds tool calls of the API's code execution: the user message that answers them must hold
 * tool_result blocks only ("You cannot include any text content, even after the tool results",
 * https://platform.claude.com/docs/en/agents-and-tools/tool-use/programmatic-tool-calling).
 */
function hasProgrammaticCalls(message: MessageParam | undefined): boolean {
  if (message?.role !== 'assistant' || typeof message.content === 'string') return false;
  return message.content.some((block) => block.type === 'tool_use' && 'caller' in block && block.caller != null);
}

const holdsToolResults = (message: MessageParam): boolean =>
  typeof message.content !== 'string' && message.content.some((block) => block.type === 'tool_result');

/**
 * The request with `text` as a last text block of its newest user message that may hold text (one answering the API's
 * code execution may not; after a paused answer the newest message is the model's), after the cache breakpoints are
 * placed, so that no breakpoint covers it. Unchanged without text, or when no user message may hold it.
 *
 * With extended thinking on (`isThinking`), never beside tool results: a text block there opens a new assistant loop,
 * and the API then drops the model's earlier thinking of the turn ("When a non-tool-result user block is included, it
 * designates a new assistant loop and all previous thinking blocks are removed from context",
 * https://platform.claude.com/docs/en/build-with-claude/extended-thinking). It then goes into the message that opened
 * the turn (the person's, or an app's), the same for every call of the turn; the next turn writes this turn's calls to
 * the cache again, once.
 */
export function withTrailingContext<T extends { readonly messages: MessageParam[] }>(
  request: T,
  text: string | undefined,
  isThinking = false,
): T {
  if (!text) return request;
  const { messages } = request;
  const at = messages.findLastIndex(
    (m, i) => m.role === 'user' && !hasProgrammaticCalls(messages[i - 1]) && !(isThinking && holdsToolResults(m)),
  );
  if (at < 0) return request;
  const message = messages[at]!;
  const content: Block[] =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...message.content];
  const withText: MessageParam = { role: 'user', content: [...content, { type: 'text', text }] };
  return { ...request, messages: messages.map((m, i) => (i === at ? withText : m)) };
}
