// The documented request rules of the Messages API that the app relies on, beyond message pairing
// (fake-anthropic-validate.ts): tools, tool search, thinking, beta features and the context window. Each rule cites its
// doc page; the message is the API's own where the docs give it, else one in the API's style naming the offending part.

import { TOOL_SEARCH_VARIANTS } from './fake-anthropic-tool-search';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the fake knows about the request's model and headers. */
export interface ContractContext {
  /** Lowercased request headers. */
  headers: Record<string, string>;
  /** The model's context window in tokens. */
  contextWindowTokens: number;
  /** The request's estimated input tokens (see fake-anthropic-cache.ts). */
  inputTokens: number;
}

// https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use#specifying-client-tools
// "name: The name of the tool. Must match the regex ^[a-zA-Z0-9_-]{1,64}$"; input_schema is a JSON Schema object.
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

// Server tools carry a versioned `type`; custom (client) tools have none, or type 'custom'.
const isCustomTool = (tool: Record<string, unknown>) => tool.type === undefined || tool.type === 'custom';
// https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool: tool_search_tool_regex_20251119 / _bm25_.
const isToolSearchTool = (tool: Record<string, unknown>) =>
  typeof tool.type === 'string' && tool.type.startsWith('tool_search_tool_');

function toolProblem(tools: unknown[]): string | null {
  for (const [i, tool] of tools.entries()) {
    if (!isRecord(tool)) return `tools.${i}: Input should be an object`;
    if (isCustomTool(tool)) {
      if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name))
        return `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`;
      const schema = tool.input_schema;
      if (!isRecord(schema)) return `tools.${i}.custom.input_schema: Field required`;
      if (schema.type !== 'object') return `tools.${i}.custom.input_schema.type: Input should be 'object'`;
    }
    // https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool: the two variants, each with its
    // fixed name ({"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"}, bm25 alike).
    if (isToolSearchTool(tool)) {
      const expected = TOOL_SEARCH_VARIANTS[String(tool.type)];
      if (expected === undefined)
        return `tools.${i}: Input tag '${String(tool.type)}' found using 'type' does not match any of the expected tags`;
      if (tool.name !== expected) return `tools.${i}.${String(tool.type)}.name: Input should be '${expected}'`;
    }
    // https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool: the tool search tool itself
    // must never have defer_loading: true.
    if (isToolSearchTool(tool) && tool.defer_loading === true)
      return `tools.${i}: The tool search tool cannot have defer_loading set to true.`;
    // https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-use-with-prompt-caching ("defer_loading and
    // prompt caching"): a deferred tool is not in the cached prefix, so it cannot carry a cache breakpoint.
    if (tool.defer_loading === true && tool.cache_control != null)
      return `tools.${i}: cache_control cannot be set on a tool with defer_loading: true (tool '${String(tool.name ?? tool.type)}').`;
  }
  // https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool ("Error handling"): at least one
  // tool (the search tool) must be loaded.
  if (tools.length > 0 && tools.every((tool) => isRecord(tool) && tool.defer_loading === true))
    return 'All tools have defer_loading set. At least one tool must be non-deferred.';
  return null;
}

/**
 * Every `tool_reference` block, with where it sits: in tool_result contents (a custom search's answer) and in
 * tool_search_tool_result contents (the API's own search, sent back with the assistant turn).
 */
function toolReferences(messages: unknown[]): { path: string; toolName: string }[] {
  const found: { path: string; toolName: string }[] = [];
  messages.forEach((message, m) => {
    if (!isRecord(message) || !Array.isArray(message.content)) return;
    message.content.forEach((block: unknown, b) => {
      if (isRecord(block) && block.type === 'tool_search_tool_result' && isRecord(block.content)) {
        const refs = Array.isArray(block.content.tool_references) ? (block.content.tool_references as unknown[]) : [];
        refs.forEach((ref, r) => {
          if (isRecord(ref))
            found.push({
              path: `messages.${m}.content.${b}.content.tool_references.${r}`,
              toolName: String(ref.tool_name),
            });
        });
      }
      if (!isRecord(block) || block.type !== 'tool_result' || !Array.isArray(block.content)) return;
      block.content.forEach((inner: unknown, c) => {
        if (isRecord(inner) && inner.type === 'tool_reference')
          found.push({ path: `messages.${m}.content.${b}.content.${c}`, toolName: String(inner.tool_name) });
      });
    });
  });
  return found;
}

// https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool ("Error handling"): a tool_reference
// must name a tool defined in the request's `tools`.
function referenceProblem(body: Record<string, unknown>, messages: unknown[]): string | null {
  const tools = Array.isArray(body.tools) ? body.tools.filter(isRecord) : [];
  const names = new Set(tools.map((tool) => String(tool.name)));
  const missing = toolReferences(messages).find((ref) => !names.has(ref.toolName));
  return missing
    ? `${missing.path}: Tool reference '${missing.toolName}' has no corresponding tool definition in \`tools\`.`
    : null;
}

const THINKING_TYPES = new Set(['thinking', 'redacted_thinking']);

// https://platform.claude.com/docs/en/build-with-claude/extended-thinking
function thinkingProblem(body: Record<string, unknown>, messages: unknown[]): string | null {
  const thinking = body.thinking;
  if (!isRecord(thinking) || thinking.type !== 'enabled') return null;
  const budget = thinking.budget_tokens;
  // "budget_tokens ... must be ≥1024 and less than max_tokens".
  if (typeof budget !== 'number' || budget < 1024)
    return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
  if (typeof body.max_tokens === 'number' && body.max_tokens <= budget)
    return '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size';
  // "Preserving thinking blocks" with tool use: while a tool loop is open (the last user turn answers tool_use
  // blocks), the assistant turn that asked for the tools must start with its thinking block.
  const last = messages.at(-1);
  const isToolLoop =
    isRecord(last) &&
    last.role === 'user' &&
    Array.isArray(last.content) &&
    last.content.some((b: unknown) => isRecord(b) && b.type === 'tool_result');
  const asked = messages.at(-2);
  if (!isToolLoop || !isRecord(asked) || asked.role !== 'assistant') return null;
  const first: unknown = Array.isArray(asked.content) ? asked.content[0] : { type: 'text' };
  const firstType = isRecord(first) ? String(first.type) : 'text';
  if (THINKING_TYPES.has(firstType)) return null;
  return `messages.${messages.length - 2}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${firstType}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`;
}

// Beta features need their `anthropic-beta` value; without it the API does not know the field.
// Context editing (clear_tool_uses_20250919, clear_thinking_20251015): context-management-2025-06-27,
// https://platform.claude.com/docs/en/build-with-claude/context-editing
// Compaction (compact_20260112): compact-2026-01-12, https://platform.claude.com/docs/en/build-with-claude/compaction
const EDIT_BETAS: Record<string, string> = {
  clear_tool_uses_20250919: 'context-management-2025-06-27',
  clear_thinking_20251015: 'context-management-2025-06-27',
  compact_20260112: 'compact-2026-01-12',
};

function betaProblem(body: Record<string, unknown>, headers: Record<string, string>): string | null {
  if (body.context_management === undefined) return null;
  const betas = (headers['anthropic-beta'] ?? '').split(',').map((beta) => beta.trim());
  const edits = isRecord(body.context_management) ? body.context_management.edits : undefined;
  if (!Array.isArray(edits) || edits.length === 0) {
    return betas.includes('context-management-2025-06-27') || betas.includes('compact-2026-01-12')
      ? null
      : 'context_management: Extra inputs are not permitted';
  }
  for (const [i, edit] of edits.entries()) {
    const type = isRecord(edit) ? String(edit.type) : '';
    const beta = EDIT_BETAS[type];
    if (beta === undefined) return `context_management.edits.${i}.type: Input tag '${type}' is not a known edit type`;
    if (!betas.includes(beta))
      return `context_management.edits.${i}: '${type}' requires the 'anthropic-beta: ${beta}' header`;
  }
  return null;
}

/** The message of the 400 the real API would answer for these contract rules, or null. */
export function contractViolation(body: Record<string, unknown>, ctx: ContractContext): string | null {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  const tools = Array.isArray(body.tools) ? (body.tools as unknown[]) : [];
  return (
    toolProblem(tools) ??
    referenceProblem(body, messages) ??
    thinkingProblem(body, messages) ??
    betaProblem(body, ctx.headers) ??
    // https://platform.claude.com/docs/en/build-with-claude/context-windows and
    // https://platform.claude.com/docs/en/api/errors: an input over the window is a 400 invalid_request_error.
    (ctx.inputTokens > ctx.contextWindowTokens
      ? `prompt is too long: ${ctx.inputTokens} tokens > ${ctx.contextWindowTokens} maximum`
      : null)
  );
}
