import { describe, expect, it } from 'vitest';
import type { Message } from '../domain/message';
import { coalesceMessages, mergeMessages } from './live-messages';

const message = (seq: number, text: string, status: Message['status'] = 'complete'): Message => ({
  id: `m${seq}`,
  threadId: 't',
  seq,
  role: seq % 2 ? 'assistant' : 'user',
  blocks: [{ type: 'text', text }],
  status,
  trace: [],
  createdAt: 0,
  updatedAt: 0,
});

describe('live messages of a turn', () => {
  it('hands streamed deltas over once a frame, the latest of each message', () => {
    const frames: (() => void)[] = [];
    const applied: string[][] = [];
    const live = coalesceMessages(
      (changed) => applied.push(changed.map((m) => (m.blocks[0] as { text: string }).text)),
      (run) => frames.push(run),
    );
    live.push(message(1, 'He', 'streaming'));
    live.push(message(1, 'Hello', 'streaming'));
    live.push(message(1, 'Hello wor', 'streaming'));
    expect(applied).toEqual([]);
    expect(frames).toHaveLength(1);
    frames[0]!();
    expect(applied).toEqual([['Hello wor']]);
  });

  it('hands a finished message over at once, with the delta still waiting, and the frame then has nothing to do', () => {
    const frames: (() => void)[] = [];
    const applied: Message[][] = [];
    const live = coalesceMessages(
      (changed) => applied.push(changed),
      (run) => frames.push(run),
    );
    live.push(message(1, 'Hel', 'streaming'));
    live.push(message(2, 'a tool result'));
    expect(applied.map((batch) => batch.map((m) => m.id))).toEqual([['m1', 'm2']]);
    frames[0]!();
    expect(applied).toHaveLength(1);
  });

  it('replaces a message where it is and adds new ones in order', () => {
    const thread = [message(0, 'Hi'), message(1, 'Hel', 'streaming')];
    const merged = mergeMessages(thread, [message(1, 'Hello'), message(3, 'later'), message(2, 'next')]);
    expect(merged.map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(merged[1]?.status).toBe('complete');
    expect(merged[0]).toBe(thread[0]);
    expect(thread[1]?.status).toBe('streaming');
  });
});
