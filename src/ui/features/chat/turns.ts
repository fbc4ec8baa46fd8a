import type { ContentBlock, Message } from '../../../domain/message';
import { isUnsentRetry } from '../../../domain/unsent-attempt';
import type { CodeExecutionTrace, ToolCallTrace, TraceEntry } from '../../../domain/trace';
import { sumUsage, type TokenTotals } from '../../../stores/token-totals';

/** One turn as its trace panel shows it: everything recorded from the person's message to the last answer. */
export interface TurnTrace {
  readonly entries: readonly TraceEntry[];
  readonly totals: TokenTotals;
}

/**
 * Whether a message has something to show: tool results appear inside their call's card instead, and so do the
 * calls Anthropic's code execution made and its output (inside the code's card). A retry refused before it was sent
 * is not (isUnsentRetry).
 */
export const isShown = (message: Message): boolean =>
  message.blocks.some(
    (b) => b.type !== 'tool_result' && b.type !== 'code_execution_tool_result' && !(b.type === 'tool_use' && b.caller),
  ) ||
  (message.error !== undefined && !isUnsentRetry(message));

/** A person's message (tool results travel as user messages too). */
const isPersonMessage = (message: Message): boolean =>
  message.role === 'user' && message.blocks.some((b) => b.type === 'text');

/** The trace of each turn, keyed by the id of the turn's last shown message (where its Trace button goes). */
export function turnTraces(messages: readonly Message[]): Map<string, TurnTrace> {
  const out = new Map<string, TurnTrace>();
  let entries: TraceEntry[] = [];
  let lastShown: string | undefined;
  const close = () => {
    if (lastShown !== undefined && entries.length > 0) out.set(lastShown, { entries, totals: sumUsage(entries) });
    entries = [];
    lastShown = undefined;
  };
  for (const message of messages) {
    if (isPersonMessage(message)) close();
    entries.push(...message.trace);
    if (isShown(message)) lastShown = message.id;
  }
  close();
  return out;
}

/** The ids of each answer's last shown message (where Regenerate goes): before the next person's message, or last. */
export function answerEnds(messages: readonly Message[]): Set<string> {
  const ends = new Set<string>();
  let lastAnswer: string | undefined;
  for (const message of messages) {
    if (isPersonMessage(message)) {
      if (lastAnswer !== undefined) ends.add(lastAnswer);
      lastAnswer = undefined;
    } else if (message.role === 'assistant' && isShown(message)) lastAnswer = message.id;
  }
  if (lastAnswer !== undefined) ends.add(lastAnswer);
  return ends;
}

type ToolResult = Extract<ContentBlock, { type: 'tool_result' }>;

/** Tool results and tool-call traces by tool_use id, to show inside the card of the call they belong to. */
export function indexTools(messages: readonly Message[]) {
  const results = new Map<string, ToolResult>();
  const toolTraces = new Map<string, ToolCallTrace>();
  const codeTraces = new Map<string, { trace?: CodeExecutionTrace; inner: ToolCallTrace[] }>();
  const codeEntry = (id: string) => codeTraces.get(id) ?? codeTraces.set(id, { inner: [] }).get(id)!;
  for (const message of messages) {
    for (const block of message.blocks) if (block.type === 'tool_result') results.set(block.tool_use_id, block);
    for (const entry of message.trace) {
      if (entry.kind === 'tool-call') toolTraces.set(entry.toolUseId, entry);
      if (entry.kind === 'tool-call' && entry.caller) codeEntry(entry.caller.parentToolUseId).inner.push(entry);
      if (entry.kind === 'code-execution') codeEntry(entry.toolUseId).trace = entry;
    }
  }
  return { results, toolTraces, codeTraces };
}
