import { describe, expect, it } from 'vitest';
import type { Message } from '../../../domain/message';
import { isSameShape } from './use-thread-shape';

const message = (
  id: string,
  text: string,
  status: Message['status'] = 'complete',
  trace: Message['trace'] = [],
): Message => ({
  id,
  threadId: 't',
  seq: 0,
  role: 'assistant',
  blocks: text ? [{ type: 'text', text }] : [],
  status,
  trace,
  createdAt: 0,
  updatedAt: 0,
});

describe('the shape of a thread for whole-thread passes', () => {
  const first = message('a', 'done');
  it('does not change while the last answer streams on', () => {
    const streaming = message('b', 'Hel', 'streaming');
    expect(isSameShape([first, streaming], [first, { ...streaming, blocks: [{ type: 'text', text: 'Hello' }] }])).toBe(
      true,
    );
  });

  it('changes when the answer finishes, first shows, another message changes or one is added', () => {
    const streaming = message('b', 'Hel', 'streaming');
    expect(isSameShape([first, streaming], [first, { ...streaming, status: 'complete' }])).toBe(false);
    expect(isSameShape([first, message('b', '', 'streaming')], [first, streaming])).toBe(false);
    expect(isSameShape([first, streaming], [{ ...first }, streaming])).toBe(false);
    expect(isSameShape([first], [first, streaming])).toBe(false);
  });
});
