// Messages like a real thread's: questions, answers in markdown, and tool calls with their results (tool cards).
import type { NewMessage } from '../../../src/domain/message';

const ANSWER = `Here is what I found:

- **First**, the server answered with the data you asked for.
- Then I compared it with the earlier numbers.

\`\`\`json
{ "status": "ok", "items": 3 }
\`\`\`

Let me know if you want the details of any item.`;

/** `count` messages in turns of four: question, answer with a tool call, the tool result, the final answer. */
export function benchMessages(count: number, tag: string): NewMessage[] {
  const messages: NewMessage[] = [];
  for (let turn = 0; messages.length < count; turn++) {
    const toolUseId = `toolu_${tag}_${turn}`;
    const question: NewMessage = {
      role: 'user',
      status: 'complete',
      blocks: [{ type: 'text', text: `Question ${turn} in ${tag}: what does the echo tool say about item ${turn}?` }],
    };
    const call: NewMessage = {
      role: 'assistant',
      status: 'complete',
      blocks: [
        { type: 'text', text: `I will ask the **echo** tool about item ${turn}.` },
        { type: 'tool_use', id: toolUseId, name: 'mcp__everything__echo', input: { message: `item ${turn}` } },
      ],
      trace: [
        {
          kind: 'model-call',
          model: 'claude-sonnet-5',
          toolNames: ['mcp__everything__echo'],
          toolTokens: 120,
          usage: { input: 900, output: 60, cacheRead: 0, cacheWrite: 0 },
          durationMs: 800,
          stopReason: 'tool_use',
        },
        {
          kind: 'tool-call',
          toolUseId,
          serverId: 'everything',
          tool: 'echo',
          arguments: { message: `item ${turn}` },
          approval: { decision: 'allow-thread', by: 'rule' },
          resultSummary: `Echo: item ${turn}`,
          isError: false,
          durationMs: 12,
        },
      ],
    };
    const result: NewMessage = {
      role: 'user',
      status: 'complete',
      blocks: [
        { type: 'tool_result', tool_use_id: toolUseId, content: [{ type: 'text', text: `Echo: item ${turn}` }] },
      ],
    };
    const answer: NewMessage = {
      role: 'assistant',
      status: 'complete',
      blocks: [{ type: 'text', text: `${ANSWER}\n\n(turn ${turn})` }],
    };
    messages.push(question, call, result, answer);
  }
  // A thread never ends on a tool call without its result, or the next model call would be refused.
  const kept = messages.slice(0, count);
  while (kept.length > 0 && kept.at(-1)!.blocks.some((b) => b.type === 'tool_use')) kept.pop();
  return kept;
}
