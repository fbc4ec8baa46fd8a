import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../domain/message';
import { MessageItem } from './message-item';

const failed: Message = {
  id: 'm2',
  threadId: 't1',
  seq: 1,
  role: 'assistant',
  blocks: [],
  status: 'error',
  error: 'The API is overloaded.',
  trace: [],
  createdAt: 0,
  updatedAt: 0,
};

describe('a failed attempt in the thread', () => {
  it('shows its error before the buttons (Regenerate) that act on it', () => {
    const html = renderToStaticMarkup(
      <MessageItem
        message={failed}
        results={new Map()}
        toolTraces={new Map()}
        codeTraces={new Map()}
        isLast={false}
        isAnswerEnd
        branches={{ versions: new Map(), onShowVersion: () => {}, onEdit: () => {}, onRegenerate: () => {} }}
      />,
    );
    const error = html.indexOf('This attempt failed: The API is overloaded.');
    const regenerate = html.indexOf('>Regenerate<');
    expect(error).toBeGreaterThan(-1);
    expect(regenerate).toBeGreaterThan(error);
  });
});

describe('an answer cut short', () => {
  it('shows why under its text; the same answer finished shows no note', () => {
    const cut: Message = {
      ...failed,
      status: 'complete',
      blocks: [{ type: 'text', text: 'It goes on and' }],
      error: 'Cut short: the answer reached the longest one allowed (8,192 tokens). Ask to continue for the rest.',
    };
    const render = (message: Message) =>
      renderToStaticMarkup(
        <MessageItem
          message={message}
          results={new Map()}
          toolTraces={new Map()}
          codeTraces={new Map()}
          isLast
          isAnswerEnd
        />,
      );
    const html = render(cut);
    expect(html.indexOf('Cut short: the answer reached the longest one allowed')).toBeGreaterThan(
      html.indexOf('It goes on and'),
    );
    const { error: _none, ...finished } = cut;
    expect(render(finished)).not.toContain('Cut short');
  });
});
