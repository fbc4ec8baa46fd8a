import type { ContentBlock, Message } from './message';

type ToolUse = Extract<ContentBlock, { type: 'tool_use' }>;

/**
 * The tool calls a thread's last answer asked for that have no result yet: a turn cut off while a call waited for the
 * person's approval or ran (the page was reloaded or closed). Empty when the thread does not end that way.
 */
export function unansweredCalls(messages: readonly Message[]): ToolUse[] {
  const last = messages.at(-1);
  if (last?.role !== 'assistant' || last.status !== 'complete') return [];
  const stopReason = last.trace.findLast((entry) => entry.kind === 'model-call')?.stopReason;
  if (stopReason !== 'tool_use') return [];
  return last.blocks.filter((block): block is ToolUse => block.type === 'tool_use');
}
