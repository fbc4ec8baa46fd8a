import type { ModelTool } from '../domain/tool';
import type { SearchableTool } from './tool-document';

/** The request form of a thread tool; `isDeferred` adds `defer_loading: true` (Anthropic mode). */
export function toModelTool(tool: SearchableTool, isDeferred = false): ModelTool {
  const base = { name: tool.modelName, description: tool.description, input_schema: tool.definition.inputSchema };
  return isDeferred ? { ...base, defer_loading: true } : base;
}

/**
 * Fixed tokens per tool on top of its JSON: the API renders each definition inside its own wrapper (tags, the name
 * repeated, separators), so even a tool with an empty schema costs a few dozen tokens.
 */
export const TOOL_OVERHEAD_TOKENS = 20;
/** Characters per token for JSON tool definitions (English prose is about 4; JSON punctuation makes it denser). */
export const CHARS_PER_TOKEN = 3.5;

/**
 * Estimated input tokens one tool definition costs in every request that carries it:
 * the length of `JSON.stringify({ name, description, input_schema })` / 3.5, plus 20 per tool.
 * Why an estimate: the exact count needs the model's tokenizer (or a count_tokens call, which is I/O); this rule of
 * thumb is within tens of percent for English JSON, and what matters here is the ratio between two tool sets and
 * whether a set is "large", both of which the same rule measures consistently.
 */
export function estimateToolTokens(tool: SearchableTool | ModelTool): number {
  const model = 'input_schema' in tool ? tool : toModelTool(tool);
  const json = JSON.stringify({ name: model.name, description: model.description, input_schema: model.input_schema });
  return Math.ceil(json.length / CHARS_PER_TOKEN) + TOOL_OVERHEAD_TOKENS;
}

/** The estimated tokens of several tool definitions together. */
export function estimateToolsTokens(tools: readonly (SearchableTool | ModelTool)[]): number {
  return tools.reduce((sum, tool) => sum + estimateToolTokens(tool), 0);
}
