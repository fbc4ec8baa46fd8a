import { describe, expect, it } from 'vitest';
import type { Message } from '../domain/message';
import type { ThreadConfig } from '../domain/thread-config';
import { exportThreadJson, exportThreadMarkdown } from './export-thread';

const thread: ThreadConfig = {
  id: 't1',
  profileId: 'p',
  title: 'Weather',
  createdAt: 1,
  updatedAt: 2,
  enabledServerIds: ['w'],
  loadedTools: [],
  pinnedTools: [],
  approvals: { 'w/forecast': { hash: 'hash', origin: 'https://w.example', authKind: 'none' } },
  samplingAllowed: { w: { origin: 'https://w.example' } },
  maxModelCalls: 20,
};
const at = { threadId: 't1', createdAt: 1, updatedAt: 1 };
const messages: Message[] = [
  {
    ...at,
    id: 'a',
    seq: 0,
    role: 'user',
    status: 'complete',
    trace: [],
    blocks: [{ type: 'text', text: 'Rain in Oslo?' }],
  },
  {
    ...at,
    id: 'b',
    seq: 1,
    role: 'assistant',
    status: 'complete',
    blocks: [{ type: 'tool_use', id: 'u1', name: 'mcp__w__forecast', input: { city: 'Oslo' } }],
    trace: [
      { kind: 'tool-search', query: 'weather', strategy: 'bm25', picks: [{ name: 'mcp__w__forecast', score: 3.5 }] },
      {
        kind: 'model-call',
        model: 'claude-sonnet-5',
        toolNames: ['tool_search'],
        toolTokens: 120,
        usage: { input: 900, output: 40, cacheRead: 800, cacheWrite: 0 },
        durationMs: 812,
        stopReason: 'tool_use',
      },
      {
        kind: 'tool-call',
        toolUseId: 'u1',
        serverId: 'w',
        tool: 'mcp__w__forecast',
        arguments: { city: 'Oslo' },
        approval: { decision: 'allow-once', by: 'person' },
        resultSummary: 'Rain',
        isError: false,
        durationMs: 30,
      },
    ],
  },
  {
    ...at,
    id: 'c',
    seq: 2,
    role: 'user',
    status: 'complete',
    trace: [],
    blocks: [{ type: 'tool_result', tool_use_id: 'u1', content: [{ type: 'text', text: 'Rain, 8°C' }] }],
  },
  {
    ...at,
    id: 'd',
    seq: 3,
    role: 'assistant',
    status: 'complete',
    trace: [],
    blocks: [{ type: 'text', text: 'Yes, **rain**.' }],
  },
];

describe('thread export', () => {
  it('as JSON: the thread settings and messages with traces, without approvals', () => {
    const parsed = JSON.parse(exportThreadJson(thread, messages)) as {
      thread: Record<string, unknown>;
      messages: Message[];
    };
    expect(parsed.thread.title).toBe('Weather');
    expect(parsed.thread.approvals).toBeUndefined();
    expect(parsed.thread.samplingAllowed).toBeUndefined();
    expect(parsed.messages).toHaveLength(4);
    expect(parsed.messages[1]?.trace).toHaveLength(3);
  });

  it('as Markdown: the conversation, the tool call and its result, and the trace', () => {
    const markdown = exportThreadMarkdown(thread, messages);
    expect(markdown).toContain('# Weather');
    expect(markdown).toContain('## You\n\nRain in Oslo?');
    expect(markdown).toContain('**Tool call** `mcp__w__forecast`');
    // The result sits under its call, inside the assistant's part, and no "You" heading comes before it.
    const call = markdown.indexOf('**Tool call** `mcp__w__forecast`');
    const result = markdown.indexOf('**Tool result**\n\n```\nRain, 8°C\n```');
    expect(result).toBeGreaterThan(call);
    expect(markdown.slice(call, result)).not.toContain('## You');
    expect(markdown.match(/## You/g)).toHaveLength(1);
    expect(markdown).toContain('tool search (bm25): "weather" → mcp__w__forecast (3.50)');
    expect(markdown).toContain('tokens in 900 / out 40 / cache read 800 / cache write 0');
    expect(markdown).toContain('tool call: mcp__w__forecast (allow-once by person), 30 ms');
  });

  it('as Markdown: a message names its attachments (the files stay in the browser)', () => {
    const withFiles: Message = {
      ...messages[0]!,
      attachments: [
        { id: 'att-1', name: 'chart.png', mimeType: 'image/png', kind: 'image', size: 2048, source: { type: 'file' } },
      ],
    };
    const markdown = exportThreadMarkdown(thread, [withFiles]);
    expect(markdown).toContain('## You\n\nRain in Oslo?\n\nAttached: chart.png (image/png, 2.0 KB)');
  });

  it('as Markdown: a retried attempt is marked as such, with what arrived of it', () => {
    const attempt: Message = {
      ...messages[0]!,
      id: 'retried',
      role: 'assistant',
      blocks: [{ type: 'text', text: 'Half an' }],
      status: 'error',
      error: 'The answer stopped arriving before it was complete; what arrived is kept.',
      retried: true,
      trace: [],
    };
    const markdown = exportThreadMarkdown(thread, [messages[0]!, attempt]);
    expect(markdown).toContain(
      '## Assistant\n\nHalf an\n\n> Failed attempt, retried (not sent to the model): The answer stopped arriving',
    );
  });

  it('as Markdown: a Retry refused before it was sent (a limit) is left out, as the chat leaves it out', () => {
    const refusal =
      'Stopped before the model call: the limit of 1 model call per hour is reached (1 in the last hour).';
    const refused = (id: string, isRetried: boolean): Message => ({
      ...messages[0]!,
      id,
      role: 'assistant',
      blocks: [],
      status: 'error',
      error: refusal,
      ...(isRetried ? { retried: true as const } : {}),
      trace: [],
    });
    const markdown = exportThreadMarkdown(thread, [
      messages[0]!,
      refused('r1', true),
      refused('r2', true),
      refused('r3', false),
    ]);
    expect(markdown.split(refusal)).toHaveLength(2); // The last refusal once, with no "Failed attempt" lines.
    expect(markdown).not.toContain('Failed attempt');
  });
});
