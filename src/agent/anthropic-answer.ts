// The Messages API's answer as the app keeps it: the content blocks it stores, the token counts it bills, and a
// server-side compaction's block (read by anthropic-model.ts from the SDK's stream and final message).
import type Anthropic from '@anthropic-ai/sdk';
import type { CompactionBlock } from '../domain/compaction';
import type { ContentBlock } from '../domain/message';
import type { Usage } from '../domain/trace';

/** The token counts of one sampling step of a request (`usage.iterations`, beta). */
type IterationUsage = Pick<
  Anthropic.Beta.BetaCompactionIterationUsage,
  'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens'
> & { readonly type: string };

/**
 * The API's token counts, as billed. Mid-stream the output count is the one from message_start until message_delta
 * brings the real one: `soFar` (the answer as streamed) gives an estimate (about 4 characters a token) in the meantime.
 * A server-side compaction's summary step is billed but left out of the top-level counts ("A `compaction` entry's
 * tokens are not included in the top-level `usage` fields"): its `iterations` entry is added, so the thread's cost and
 * the spending limits count it.
 */
export function toUsage(
  usage: Anthropic.Usage & { readonly iterations?: readonly IterationUsage[] | null },
  soFar?: readonly ContentBlock[],
): Usage {
  const estimate = soFar ? Math.ceil(JSON.stringify(soFar).length / 4) : 0;
  const compactions = (usage.iterations ?? []).filter((step) => step.type === 'compaction');
  const plus = (key: Exclude<keyof IterationUsage, 'type'>) =>
    compactions.reduce((sum, step) => sum + (step[key] ?? 0), 0);
  return {
    input: usage.input_tokens + plus('input_tokens'),
    output: Math.max(usage.output_tokens, soFar && soFar.length > 0 ? estimate : 0) + plus('output_tokens'),
    cacheRead: (usage.cache_read_input_tokens ?? 0) + plus('cache_read_input_tokens'),
    cacheWrite: (usage.cache_creation_input_tokens ?? 0) + plus('cache_creation_input_tokens'),
  };
}

export function compactionOf(content: readonly { type: string }[]): CompactionBlock | undefined {
  const block = content.find((b) => b.type === 'compaction') as Anthropic.Beta.Messages.BetaCompactionBlock | undefined;
  if (!block) return undefined;
  return {
    type: 'compaction',
    content: block.content,
    encrypted_content: block.encrypted_content ?? null,
    ...(block.signature ? { signature: block.signature } : {}),
  };
}

/** Keeps the blocks the app stores; tool input that is not an object (invalid JSON) is kept as it came. */
export function toBlocks(content: readonly Anthropic.ContentBlock[]): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const block of content) {
    switch (block.type) {
      case 'text':
        blocks.push({ type: 'text', text: block.text });
        break;
      case 'thinking':
        blocks.push({
          type: 'thinking',
          thinking: block.thinking,
          ...(block.signature ? { signature: block.signature } : {}),
        });
        break;
      case 'redacted_thinking':
        blocks.push({ type: 'redacted_thinking', data: block.data });
        break;
      case 'tool_use':
        blocks.push({
          type: 'tool_use',
          id: block.id,
          name: block.name,
          input: block.input,
          // Made by Anthropic's code execution (programmatic tool calling): kept, and sent back as received.
          ...(block.caller && block.caller.type !== 'direct' ? { caller: { ...block.caller } } : {}),
        });
        break;
      // Server mode: the API's tool search and what it found; sent back as they came so the found tools stay loaded.
      case 'server_tool_use':
        blocks.push({ type: 'server_tool_use', id: block.id, name: block.name, input: block.input });
        break;
      case 'tool_search_tool_result':
        blocks.push({ type: 'tool_search_tool_result', tool_use_id: block.tool_use_id, content: block.content });
        break;
      // What Anthropic's code execution gave back when the model's code ended (programmatic tool calling).
      case 'code_execution_tool_result':
        blocks.push({
          type: 'code_execution_tool_result',
          tool_use_id: block.tool_use_id,
          content: codeOutput(block.content),
        });
        break;
      default:
        break;
    }
  }
  return blocks;
}

/** The code execution's output with the fields the app keeps (the API wants them back as it sent them). */
function codeOutput(content: Anthropic.CodeExecutionToolResultBlockContent) {
  switch (content.type) {
    case 'code_execution_tool_result_error':
      return { type: content.type, error_code: content.error_code };
    case 'code_execution_result':
      return {
        type: content.type,
        stdout: content.stdout,
        stderr: content.stderr,
        return_code: content.return_code,
        content: content.content.map((c) => ({ type: c.type, file_id: c.file_id })),
      };
    case 'encrypted_code_execution_result':
      return {
        type: content.type,
        encrypted_stdout: content.encrypted_stdout,
        stderr: content.stderr,
        return_code: content.return_code,
        content: content.content.map((c) => ({ type: c.type, file_id: c.file_id })),
      };
  }
}
