import { describe, expect, it } from 'vitest';
import type { Message } from '../../../domain/message';
import type { TraceEntry } from '../../../domain/trace';
import { answerEnds, isShown, turnTraces } from './turns';

let seq = 0;
const message = (
  role: Message['role'],
  blocks: Message['blocks'],
  trace: TraceEntry[] = [],
  extra: Partial<Message> = {},
): Message => ({
  id: `m${seq}`,
  threadId: 't',
  seq: seq++,
  role,
  blocks,
  status: 'complete',
  trace,
  createdAt: 0,
  updatedAt: 0,
  ...extra,
});
const call = (input: number, output: number): TraceEntry => ({
  kind: 'model-call',
  model: 'm',
  toolNames: [],
  toolTokens: 0,
  durationMs: 1,
  usage: { input, output, cacheRead: 1, cacheWrite: 2 },
});
const toolCall: TraceEntry = {
  kind: 'tool-call',
  toolUseId: 'u1',
  tool: 'mcp__s__echo',
  arguments: {},
  resultSummary: 'ok',
  isError: false,
  durationMs: 3,
};

describe("a turn's trace", () => {
  it("gathers every entry from the person's message to the next one, shown on the turn's last shown message", () => {
    const messages = [
      message('user', [{ type: 'text', text: 'first' }]),
      message(
        'assistant',
        [{ type: 'tool_use', id: 'u1', name: 'mcp__s__echo', input: {} }],
        [call(100, 10), toolCall],
      ),
      message('user', [{ type: 'tool_result', tool_use_id: 'u1', content: [{ type: 'text', text: 'ok' }] }]),
      message('assistant', [{ type: 'text', text: 'done' }], [call(200, 20)]),
      message('user', [{ type: 'text', text: 'second' }]),
      message(
        'assistant',
        [],
        [{ kind: 'model-call', model: 'm', toolNames: [], toolTokens: 0, durationMs: 1, error: 'overloaded' }],
        { status: 'error', error: 'overloaded' },
      ),
    ];
    const traces = turnTraces(messages);
    expect([...traces.keys()]).toEqual([messages[3]!.id, messages[5]!.id]);
    expect(traces.get(messages[3]!.id)?.entries).toHaveLength(3);
    expect(traces.get(messages[3]!.id)?.totals).toEqual({
      input: 300,
      output: 30,
      cacheRead: 2,
      cacheWrite: 4,
      calls: 2,
      // These calls were recorded without a cost: tokens only.
      usd: 0,
      unpriced: 2,
    });
    expect(traces.get(messages[5]!.id)?.totals.calls).toBe(0);
    expect(messages.map(isShown)).toEqual([true, true, false, true, true, true]);
  });
});

describe('answerEnds (where Regenerate goes, issue #22)', () => {
  it("is each answer's last shown message: past its tool calls, not on a tool result or the person's message", () => {
    const ask = message('user', [{ type: 'text', text: 'Add 2 and 3' }]);
    const use = message('assistant', [{ type: 'tool_use', id: 'u1', name: 'add', input: {} }]);
    const result = message('user', [{ type: 'tool_result', tool_use_id: 'u1', content: [] }]);
    const answer = message('assistant', [{ type: 'text', text: '5' }]);
    const next = message('user', [{ type: 'text', text: 'Thanks' }]);
    const failed = message('assistant', [], [], { status: 'error', error: 'overloaded' });
    expect([...answerEnds([ask, use, result, answer, next, failed])]).toEqual([answer.id, failed.id]);
    expect([...answerEnds([ask])]).toEqual([]);
  });
});
