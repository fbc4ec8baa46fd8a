import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { withCacheBreakpoints } from './cache-breakpoints';
import { withTrailingContext } from './trailing-context';

const NOTE = 'The map shows Lyon.';
const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const useOf = (id: string, caller?: { type: 'code_execution_20260120'; tool_id: string }): MessageParam => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name: 'mcp__maps__find', input: {}, ...(caller ? { caller } : {}) }],
});
const resultOf = (id: string): MessageParam => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content: 'Lyon, 45.76N 4.84E' }],
});
const sent = (messages: MessageParam[]) => withTrailingContext(withCacheBreakpoints({ messages }), NOTE).messages;

describe('withTrailingContext', () => {
  it("goes last in the newest user message, after that message's breakpoint, which stays on the conversation", () => {
    const messages = sent([user('Where is Lyon?'), useOf('toolu_1'), resultOf('toolu_1')]);
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: 'Lyon, 45.76N 4.84E',
          cache_control: { type: 'ephemeral' },
        },
        { type: 'text', text: NOTE },
      ],
    });
    // The earlier messages are sent as they are stored, so the next request shares them.
    expect(JSON.stringify(messages.slice(0, -1))).not.toContain(NOTE);
  });

  it("after a paused answer (the newest message is the model's), goes into the user message before it", () => {
    const paused: MessageParam = { role: 'assistant', content: [{ type: 'text', text: 'Searching…' }] };
    const messages = sent([user('Where is Lyon?'), paused]);
    expect(messages[0]!.content).toEqual([
      { type: 'text', text: 'Where is Lyon?', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: NOTE },
    ]);
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Searching…', cache_control: { type: 'ephemeral' } }],
    });
  });

  it('is never put beside results of calls made by code execution, which must be sent alone', () => {
    const caller = { type: 'code_execution_20260120' as const, tool_id: 'srvtoolu_1' };
    const messages = sent([user('Where is Lyon?'), useOf('toolu_1', caller), resultOf('toolu_1')]);
    expect(messages[2]!.content).toHaveLength(1);
    expect(messages[0]!.content).toEqual([
      { type: 'text', text: 'Where is Lyon?', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: NOTE },
    ]);
  });

  it("with thinking on, goes into the turn's opening message, never beside tool results (that would drop the thinking)", () => {
    const thinking = withTrailingContext(
      withCacheBreakpoints({ messages: [user('Where is Lyon?'), useOf('toolu_1'), resultOf('toolu_1')] }),
      NOTE,
      true,
    ).messages;
    expect(thinking[2]!.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: 'Lyon, 45.76N 4.84E',
        cache_control: { type: 'ephemeral' },
      },
    ]);
    expect(thinking[0]!.content).toEqual([
      { type: 'text', text: 'Where is Lyon?', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: NOTE },
    ]);
  });

  it('leaves the request as it is without a note', () => {
    const request = { messages: [user('Hi')] };
    expect(withTrailingContext(request, undefined)).toBe(request);
    expect(withTrailingContext(request, '')).toBe(request);
  });
});
