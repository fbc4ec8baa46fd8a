import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ToolCallTrace } from '../../../domain/trace';
import { CodeCard } from './code-card';

/** The card's text, tags left out. */
const summary = (code: string, awaitingIds?: ReadonlySet<string>, innerCalls: readonly ToolCallTrace[] = []) =>
  renderToStaticMarkup(
    <CodeCard use={{ id: 'c1', input: { code } }} innerCalls={innerCalls} {...(awaitingIds ? { awaitingIds } : {})} />,
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
    expect(summary('return 1;', new Set(['c1:1']))).toMatch(/Code waiting for your approval of a call… · 0 tool calls/);
    expect(summary('return 1;', new Set(['other:1']))).toMatch(/Code running… · 0 tool calls/);
  });

  it('of calls the code runs at once, only the one the person is asked about waits for approval', () => {
    const running = (n: number): ToolCallTrace => ({
      kind: 'tool-call',
      toolUseId: `c1:${n}`,
      tool: `mcp__weather__forecast_${n}`,
      arguments: {},
      resultSummary: '',
      isError: false,
      durationMs: 0,
      isRunning: true,
    });
    const text = summary('return 1;', new Set(['c1:2']), [running(1), running(2)]);
    expect(text).toMatch(/forecast_1 running… .*forecast_2 waiting for your approval…/);
  });
});
