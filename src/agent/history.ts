import type { ContentBlock, Message } from '../domain/message';
import { failedResult, type ToolCallResult } from '../domain/tool-result';
import type { ToolCallTrace } from '../domain/trace';
import { limitRequestImages } from './image-limits';
import { toModelToolResult } from './tool-result-blocks';
import type { ModelMessage } from './model-port';

/**
 * The thread as the API accepts it: retried attempts are left out, unfinished answers keep their text only, tool uses without a result
 * are dropped (the API refuses them), consecutive messages of one role are merged, and only the newest images
 * are sent again (older ones become a placeholder; see image-limits.ts).
 */
export function toModelMessages(messages: readonly Message[]): ModelMessage[] {
  const answered = new Set<string>();
  for (const message of messages)
    for (const block of message.blocks) if (block.type === 'tool_result') answered.add(block.tool_use_id);
  const used = new Set<string>();
  const out: { role: 'user' | 'assistant'; content: ContentBlock[] }[] = [];
  for (const message of messages) {
    if (message.retried) continue; // Half an answer the retry replaced: the model is not fed it.
    const isFinished = message.status === 'complete';
    const content = message.blocks.filter((block) => {
      if (block.type === 'tool_use') {
        const keep = isFinished && answered.has(block.id);
        if (keep) used.add(block.id);
        return keep;
      }
      if (block.type === 'thinking' || block.type === 'redacted_thinking') return isFinished;
      if (block.type === 'tool_result') return used.has(block.tool_use_id);
      if (block.type === 'text') return block.text.length > 0;
      return true;
    });
    if (content.length === 0) continue;
    const last = out.at(-1);
    if (last?.role === message.role) last.content.push(...content);
    else out.push({ role: message.role, content: [...content] });
  }
  while (out[0] && out[0].role !== 'user') out.shift();
  return limitRequestImages(out);
}

/** Characters of tool output sent back to the model at most; the rest is cut with a note. */
export const DEFAULT_RESULT_CAP = 40_000;

/** A tool's result as a tool_result block the API accepts, within `capChars` (see tool-result-blocks.ts). */
export function toToolResultBlock(
  toolUseId: string,
  result: ToolCallResult,
  capChars = DEFAULT_RESULT_CAP,
): Extract<ContentBlock, { type: 'tool_result' }> {
  return toModelToolResult(toolUseId, result, capChars).block;
}

/** A one-line summary of a result for the trace. */
export function summarize(result: ToolCallResult): string {
  const text = result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join(' ');
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** The trace entry of one tool call (or of a call refused before it was made), by the id and name the caller used. */
export function toolCallTrace(
  use: { readonly id: string; readonly name: string; readonly input: unknown },
  result: ToolCallResult,
  extra: Partial<ToolCallTrace> = {},
): ToolCallTrace {
  return {
    kind: 'tool-call',
    toolUseId: use.id,
    tool: use.name,
    arguments: use.input,
    resultSummary: summarize(result),
    isError: result.isError,
    durationMs: result.durationMs,
    ...(result.failure ? { error: result.failure.message } : {}),
    ...(result.failure?.kind === 'aborted' ? { isStopped: true as const } : {}),
    ...extra,
  };
}

/** The answer to a tool call whose input is not a JSON object: the tool is not called, and the model is told why. */
export function notAnObject(toolName: string): ToolCallResult {
  return failedResult(
    {
      kind: 'invalid-arguments',
      message: `The input for ${toolName} is not a JSON object, so the tool was not called. Send the arguments as an object.`,
    },
    0,
  );
}
