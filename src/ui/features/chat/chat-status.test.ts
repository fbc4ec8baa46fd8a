import { describe, expect, it } from 'vitest';
import type { Message } from '../../../domain/message';
import { turnEndAnnouncement } from './chat-status';

const answer = (change: Partial<Message>): Message => ({
  id: 'a1',
  threadId: 't1',
  seq: 1,
  role: 'assistant',
  blocks: [{ type: 'text', text: 'Words' }],
  status: 'complete',
  trace: [],
  createdAt: 0,
  updatedAt: 0,
  ...change,
});

describe("what a screen reader hears at a turn's end", () => {
  it('complete, cut short (its note), stopped, or failed (the reason is read by the error alert itself)', () => {
    expect(turnEndAnnouncement([answer({})])).toBe('Answer complete.');
    expect(turnEndAnnouncement([answer({ error: 'Cut short: the answer reached the longest one allowed.' })])).toBe(
      'Cut short: the answer reached the longest one allowed.',
    );
    expect(turnEndAnnouncement([answer({ status: 'interrupted' })])).toBe('Answer stopped.');
    expect(turnEndAnnouncement([answer({ status: 'error', error: 'The API had an internal error.' })])).toBe(
      'The answer failed.',
    );
  });
});
