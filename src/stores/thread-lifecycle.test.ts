import { describe, expect, it } from 'vitest';
import type { Message } from '../domain/message';
import { previewOf } from './thread-lifecycle';

const answer = (text: string): Message => ({
  id: 'm1',
  threadId: 't1',
  seq: 0,
  role: 'assistant',
  blocks: [{ type: 'text', text }],
  status: 'complete',
  trace: [],
  createdAt: 0,
  updatedAt: 0,
});

describe("the thread list's preview of the latest answer", () => {
  it('drops Markdown markers but keeps the words, names with underscores among them', () => {
    expect(
      previewOf([answer('## Result\n\nI called `mcp__calc__add` and **got** _15_; see [the docs](https://x.y).')]),
    ).toBe('Result I called mcp__calc__add and got 15; see the docs.');
    expect(previewOf([answer('> quoted\n- one\n1. two\n| a | b |')])).toBe('quoted one two a b');
  });
});
