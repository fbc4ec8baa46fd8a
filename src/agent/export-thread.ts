import { formatBytes } from '../domain/byte-size';
import { assertNever } from '../domain/errors';
import type { Message } from '../domain/message';
import type { ThreadConfig } from '../domain/thread-config';
import type { TraceEntry } from '../domain/trace';
import { isUnsentRetry } from '../domain/unsent-attempt';

/** A thread with its messages and traces as JSON (no secrets, approvals or apps' words for the model). */
export function exportThreadJson(thread: ThreadConfig, messages: readonly Message[]): string {
  const { approvals: _approvals, samplingAllowed: _samplingAllowed, appContexts: _appContexts, ...settings } = thread;
  return JSON.stringify({ format: 'mcp-agent-thread', version: 1, thread: settings, messages }, null, 2);
}

/** A thread as Markdown a person can read: the conversation, tool calls and the trace of each answer. */
export function exportThreadMarkdown(thread: ThreadConfig, messages: readonly Message[]): string {
  const lines = [`# ${thread.title}`, ''];
  // A result travels in the next user message; in the export it sits under the call it answers, not under "You".
  const results = new Map<string, ToolResult>();
  for (const message of messages)
    for (const block of message.blocks) if (block.type === 'tool_result') results.set(block.tool_use_id, block);
  for (const message of messages) {
    if (isUnsentRetry(message)) continue; // As the chat shows it: one refusal, not one per Retry.
    const parts: string[] = [];
    for (const block of message.blocks) {
      if (block.type === 'text' && block.text) parts.push(block.text);
      if (block.type === 'tool_use') {
        parts.push(`**Tool call** \`${block.name}\`\n\n\`\`\`json\n${JSON.stringify(block.input, null, 2)}\n\`\`\``);
        const result = results.get(block.id);
        parts.push(result ? resultText(result) : '**Tool result**: none (the call was not answered)');
      }
    }
    // The files themselves stay in the browser: the export names them, so the message reads as it was sent.
    if (message.attachments?.length)
      parts.push(
        `Attached: ${message.attachments.map((a) => `${a.name} (${a.mimeType}, ${formatBytes(a.size)})`).join(', ')}`,
      );
    if (message.error)
      parts.push(`> ${message.retried ? `Failed attempt, retried (not sent to the model): ` : ''}${message.error}`);
    if (parts.length === 0) continue;
    lines.push(`## ${message.role === 'user' ? 'You' : 'Assistant'}`, '', ...parts.flatMap((p) => [p, '']));
    if (message.trace.length > 0)
      lines.push('<details><summary>Trace</summary>', '', ...message.trace.map(traceLine), '', '</details>', '');
  }
  return lines.join('\n');
}

type ToolResult = Extract<Message['blocks'][number], { type: 'tool_result' }>;

function resultText(block: ToolResult): string {
  const text = block.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
  const fence = text.includes('```') ? '~~~~' : '```';
  return `**Tool result**${block.is_error ? ' (error)' : ''}\n\n${fence}\n${text}\n${fence}`;
}

function traceLine(entry: TraceEntry): string {
  switch (entry.kind) {
    case 'model-call': {
      const usage = entry.usage
        ? `, tokens in ${entry.usage.input} / out ${entry.usage.output} / cache read ${entry.usage.cacheRead} / cache write ${entry.usage.cacheWrite}`
        : '';
      const cost =
        entry.costUsd !== undefined ? `, $${entry.costUsd.toFixed(4)}` : entry.unpricedReason ? ', no price' : '';
      return `- model call: ${entry.model}, ${entry.toolNames.length} tools (~${entry.toolTokens} tokens)${usage}${cost}, ${Math.round(entry.durationMs)} ms, stop: ${entry.stopReason ?? entry.error ?? '?'}`;
    }
    case 'tool-call':
      return `- tool call${entry.caller ? ' (from code)' : ''}: ${entry.tool}${entry.approval ? ` (${entry.approval.decision} by ${entry.approval.by})` : ''}, ${Math.round(entry.durationMs)} ms${entry.error ? `, error: ${entry.error}` : ''}`;
    case 'tool-search':
      return `- tool search (${entry.strategy}): "${entry.query}" → ${entry.picks.map((p) => `${p.name} (${p.score.toFixed(2)})`).join(', ') || 'nothing'}`;
    case 'code-execution':
      return `- code execution: ${entry.status}, ${entry.calls} tool calls, ${Math.round(entry.durationMs)} ms, ~${entry.savedTokens} tokens kept out of the context${entry.error ? `, error: ${entry.error}` : ''}`;
    case 'compaction':
      return `- context compacted (${entry.method}): ~${entry.tokensBefore} → ~${entry.tokensAfter} tokens${entry.note ? `; ${entry.note}` : ''}`;
    default:
      return assertNever(entry);
  }
}
