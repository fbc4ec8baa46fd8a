import { describe, expect, it } from 'vitest';
import type { Message } from '../../../domain/message';
import { estimateRowHeight } from './row-estimate';

const message = (text: string, extra: Partial<Message> = {}): Message => ({
  id: `m-${text.length}-${Math.random()}`,
  threadId: 't1',
  seq: 0,
  role: 'assistant',
  blocks: [{ type: 'text', text }],
  status: 'complete',
  trace: [],
  createdAt: 0,
  updatedAt: 0,
  ...extra,
});

const WIDTH = 830;
const code = (lines: number) =>
  `Here it is:\n\n\`\`\`ts\n${Array.from({ length: lines }, (_, i) => `const x${i} = ${i};`).join('\n')}\n\`\`\``;

describe('estimateRowHeight', () => {
  it('grows with the text: a long answer is estimated taller than a one-line question', () => {
    const question = estimateRowHeight(message('What is the weather?', { role: 'user' }), WIDTH);
    const answer = estimateRowHeight(message(Array.from({ length: 6 }, () => 'word '.repeat(90)).join('\n\n')), WIDTH);
    expect(question).toBeGreaterThan(40);
    expect(question).toBeLessThan(120);
    expect(answer).toBeGreaterThan(5 * question);
  });

  it('wraps long lines: the same text is taller in a narrower list', () => {
    const text = message('word '.repeat(200));
    expect(estimateRowHeight(text, 390)).toBeGreaterThan(estimateRowHeight(text, WIDTH));
  });

  it('caps a code block at the height it scrolls past (a 600-line block is no taller than a 60-line one)', () => {
    expect(estimateRowHeight(message(code(600)), WIDTH)).toBe(estimateRowHeight(message(code(60)), WIDTH));
    expect(estimateRowHeight(message(code(60)), WIDTH)).toBeGreaterThan(estimateRowHeight(message(code(3)), WIDTH));
  });

  it('counts tool cards, attachments and table rows', () => {
    const plain = estimateRowHeight(message('Let me check.'), WIDTH);
    const withCall = message('Let me check.');
    const called = estimateRowHeight(
      { ...withCall, blocks: [...withCall.blocks, { type: 'tool_use', id: 'toolu_1', name: 'echo', input: {} }] },
      WIDTH,
    );
    const attached = estimateRowHeight(
      message('Let me check.', {
        attachments: [
          { id: 'a', name: 'a.png', mimeType: 'image/png', kind: 'image', size: 1, source: { type: 'file' } },
        ],
      }),
      WIDTH,
    );
    const table = estimateRowHeight(message(`| a | b |\n|---|---|\n${'| 1 | 2 |\n'.repeat(12)}`), WIDTH);
    expect(called).toBeGreaterThan(plain);
    expect(attached).toBeGreaterThan(plain);
    expect(table).toBeGreaterThan(12 * 24);
  });
});
