import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CodeCard } from './code-card';

/** The card's text, tags left out. */
const summary = (code: string, isAwaitingApproval = false) =>
  renderToStaticMarkup(
    <CodeCard use={{ id: 'c1', input: { code } }} innerCalls={[]} isAwaitingApproval={isAwaitingApproval} />,
  )
    .replace(/<[^>]+>|<!-- -->/g, ' ')
    .replace(/\s+/g, ' ');

describe('the code card', () => {
  it('counts the lines of the code in words a person writes: 1 line, 2 lines', () => {
    expect(summary('return 1;')).toMatch(/JavaScript \(1 line\)/);
    expect(summary('const a = 1;\nreturn a;')).toMatch(/JavaScript \(2 lines\)/);
  });

  it('says so while a call of the code waits for the person’s approval, not just "running"', () => {
    expect(summary('return 1;')).toMatch(/Code running… · 0 tool calls/);
    expect(summary('return 1;', true)).toMatch(/Code waiting for your approval of a call… · 0 tool calls/);
  });
});
