import type { MessageParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { MAX_CACHE_BREAKPOINTS, withCacheBreakpoints } from './cache-breakpoints';

const schema = { type: 'object' as const, properties: {} };
const tool = (name: string, deferred = false): ToolUnion => ({
  name,
  description: name,
  input_schema: schema,
  ...(deferred ? { defer_loading: true } : {}),
});
const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const marks = (value: unknown): string[] => {
  const found: string[] = [];
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) v.forEach((item, i) => walk(item, `${path}.${i}`));
    else if (v && typeof v === 'object')
      for (const [k, inner] of Object.entries(v)) {
        if (k === 'cache_control') found.push(path);
        else walk(inner, `${path}.${k}`);
      }
  };
  walk(value, '');
  return found;
};

describe('withCacheBreakpoints', () => {
  it('marks the system block, the newest block and the end of the previous request: at most 4', () => {
    const request = withCacheBreakpoints({
      system: 'Be brief.',
      tools: [tool('a'), tool('b')],
      messages: [
        user('first'),
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'a', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'result' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
        user('second'),
      ],
    });
    expect(marks(request)).toEqual(['.system.0', '.messages.2.content.0', '.messages.4.content.0']);
    expect(marks(request).length).toBeLessThanOrEqual(MAX_CACHE_BREAKPOINTS);
  });

  it('without a system prompt marks the last tool in the prompt, never a deferred one', () => {
    const request = withCacheBreakpoints({
      tools: [tool('tool_search'), tool('x', true), tool('y', true)],
      messages: [user('hi')],
    });
    expect(marks(request)).toEqual(['.tools.0', '.messages.0.content.0']);
  });

  it('never marks a thinking block: the last other block of the message carries it', () => {
    const request = withCacheBreakpoints({
      messages: [
        user('q'),
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'partial' },
            { type: 'thinking', thinking: 'hm', signature: 's' },
          ],
        },
      ],
    });
    expect(marks(request)).toEqual(['.messages.0.content.0', '.messages.1.content.0']);
  });
});
