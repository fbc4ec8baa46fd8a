// Messages like a real thread's: questions, answers in markdown, and tool calls with their results (tool cards).
import type { NewMessage } from '../../../src/domain/message';

const ANSWER = `Here is what I found:

- **First**, the server answered with the data you asked for.
- Then I compared it with the earlier numbers.

\`\`\`json
{ "status": "ok", "items": 3 }
\`\`\`

Let me know if you want the details of any item.`;

/** A few paragraphs with a heading, a list, emphasis, inline code and a link, as a long answer has. */
const prose = (turn: number) =>
  [
    `## What changed in step ${turn}`,
    ...Array.from(
      { length: 5 },
      (_, k) =>
        `Paragraph ${k} of answer ${turn}: the **refactoring** moves \`module${k}\` behind an interface, so *callers* depend on ` +
        `its contract rather than on its internals. See [the notes](https://example.com/notes/${turn}#p${k}) for details. ` +
        'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. '.repeat(
          2,
        ),
    ),
    Array.from({ length: 6 }, (_, k) => `${k + 1}. Item ${k} with \`code${k}\` and **bold ${k}**`).join('\n'),
  ].join('\n\n');

/** A 60-line fenced TypeScript block (highlighted by the renderer), as an answer that writes code has. */
const code = (turn: number) =>
  `Here is the new version:\n\n\`\`\`typescript\n${Array.from(
    { length: 60 },
    (_, k) => `export function step${turn}_${k}(x: number): number { return x * ${k} + ${turn}; } // line ${k}`,
  ).join('\n')}\n\`\`\`\n\nIt keeps the old behaviour.`;

/** A 12-row GitHub table with a line of text around it. */
const table = (turn: number) =>
  `The forecasts side by side:\n\n| city | temp | rain | wind |\n|---|---|---|---|\n${Array.from(
    { length: 12 },
    (_, k) => `| City${k} | ${k + (turn % 7)} | ${k % 3} | ${k * 2} |`,
  ).join('\n')}\n\nThe warmest is **City11**.`;

/** How the bench's threads look: `plain`, short answers (the storage figure's); `rich`, a real long thread's answers. */
export type BenchContent = 'plain' | 'rich';

/** Every this many turns in `rich` content, the question carries an image (its bytes stored by the harness). */
export const IMAGE_EVERY_TURNS = 25;

/**
 * `count` messages in turns of four: question, answer with a tool call, the tool result, the final answer. `rich`
 * answers (as the trial's heavy user had) are in turn long prose with a list, a 60-line code block or a table, and
 * every IMAGE_EVERY_TURNS-th question has a PNG attached (`image-<tag>-<turn>`, whose bytes the caller stores).
 */
export function benchMessages(count: number, tag: string, content: BenchContent = 'plain'): NewMessage[] {
  const messages: NewMessage[] = [];
  for (let turn = 0; messages.length < count; turn++) {
    const toolUseId = `toolu_${tag}_${turn}`;
    const hasImage = content === 'rich' && turn % IMAGE_EVERY_TURNS === 2;
    const question: NewMessage = {
      role: 'user',
      status: 'complete',
      blocks: [{ type: 'text', text: `Question ${turn} in ${tag}: what does the echo tool say about item ${turn}?` }],
      ...(hasImage
        ? {
            attachments: [
              {
                id: `image-${tag}-${turn}`,
                name: `chart-${turn}.png`,
                mimeType: 'image/png',
                kind: 'image' as const,
                size: 2048,
                source: { type: 'file' as const },
              },
            ],
          }
        : {}),
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
    const body = content === 'rich' ? [prose, code, table][turn % 3]!(turn) : ANSWER;
    const answer: NewMessage = {
      role: 'assistant',
      status: 'complete',
      blocks: [{ type: 'text', text: `${body}\n\n(turn ${turn})` }],
    };
    messages.push(question, call, result, answer);
  }
  // A thread never ends on a tool call without its result, or the next model call would be refused.
  const kept = messages.slice(0, count);
  while (kept.length > 0 && kept.at(-1)!.blocks.some((b) => b.type === 'tool_use')) kept.pop();
  return kept;
}
