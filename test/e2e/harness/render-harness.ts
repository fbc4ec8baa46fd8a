/** Test page: the chat's real message and boundary components in real Chromium, for test/e2e/hostile/render.e2e.test.ts. */
import { createElement as h, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { Message } from '../../../src/domain/message';
import { RenderBoundary } from '../../../src/ui/components/render-boundary';
import { MessageItem } from '../../../src/ui/features/chat/message-item';

/** Tool input no formatter can read: every property access throws (a stand-in for whatever a renderer chokes on). */
const unreadable = new Proxy(
  {},
  {
    ownKeys: () => {
      throw new RangeError('Maximum call stack size exceeded');
    },
  },
);

const message: Message = {
  id: 'm1',
  threadId: 't1',
  seq: 1,
  role: 'assistant',
  status: 'complete',
  trace: [],
  createdAt: 0,
  updatedAt: 0,
  blocks: [
    { type: 'text', text: 'Before the call, **formatted**.' },
    { type: 'tool_use', id: 'toolu_1', name: 'mcp__files__delete_file', input: unreadable },
  ],
};

function Throws({ text }: { text: string }): never {
  throw new RangeError(`cannot render ${text.length} characters`);
}

/** A boundary around a child that always throws; "Next text" gives it new raw text, to show it tries again. */
function FailingBlock() {
  const [text, setText] = useState('<img src=x onerror="window.__pwned=1"> raw **text**');
  return h(
    'section',
    { 'aria-label': 'Failing block' },
    h(RenderBoundary, {
      what: 'This block',
      rawText: text,
      children: text.startsWith('fine') ? h('p', null, text) : h(Throws, { text }),
    }),
    h('button', { type: 'button', onClick: () => setText('fine now') }, 'Next text'),
  );
}

createRoot(document.getElementById('root')!).render(
  h(
    'main',
    null,
    h(MessageItem, { message, results: new Map(), toolTraces: new Map(), codeTraces: new Map(), isLast: true }),
    h(FailingBlock),
    h('p', { id: 'sibling' }, 'The rest of the page'),
  ),
);
