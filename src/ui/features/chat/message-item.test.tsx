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
