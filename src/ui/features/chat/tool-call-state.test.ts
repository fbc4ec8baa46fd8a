import { describe, expect, it } from 'vitest';
import type { ContentBlock } from '../../../domain/message';
import type { ToolCallTrace } from '../../../domain/trace';
import { toolCallState } from './tool-card';

const trace = (extra: Partial<ToolCallTrace> = {}): ToolCallTrace => ({
  kind: 'tool-call',
  toolUseId: 'tu-1',
  tool: 'echo',
  arguments: {},
  resultSummary: 'Echo: hi',
  isError: false,
  durationMs: 12,
  ...extra,
});
type ToolResult = Extract<ContentBlock, { type: 'tool_result' }>;
const result = (isError = false): ToolResult => ({
  type: 'tool_result',
  tool_use_id: 'tu-1',
  content: [{ type: 'text', text: 'Echo: hi' }],
  is_error: isError,
});

describe('a tool card’s state', () => {
  it('reads done or failed from the trace of a call that ended while its batch still runs (no result stored yet)', () => {
    expect(toolCallState(undefined, trace(), false, true)).toBe('done');
    expect(toolCallState(undefined, trace({ isError: true }), false, true)).toBe('error');
    expect(toolCallState(undefined, undefined, false, true)).toBe('running');
    expect(toolCallState(undefined, undefined, false, false)).toBe('not-run');
  });

  it('says a call asked about is waiting, even with a trace stored before a reload (it is asked, and run, again)', () => {
    expect(toolCallState(undefined, trace(), true, true)).toBe('waiting');
    expect(toolCallState(undefined, undefined, true, true)).toBe('waiting');
  });

  it('keeps a denied or stopped call apart from a failed one', () => {
    expect(toolCallState(result(true), trace({ approval: { decision: 'deny', by: 'person' } }), false, false)).toBe(
      'denied',
    );
    expect(toolCallState(result(true), trace({ isStopped: true }), false, false)).toBe('stopped');
    expect(toolCallState(result(true), trace({ isError: true }), false, false)).toBe('error');
  });

  it('says a call another tab answering the thread asks about is waiting there, not "not run"', () => {
    expect(toolCallState(undefined, undefined, false, true, true)).toBe('waiting-elsewhere');
    expect(toolCallState(undefined, trace(), false, true, true)).toBe('waiting-elsewhere');
    expect(toolCallState(undefined, undefined, true, true, true)).toBe('waiting'); // Asked here: answered here.
  });
});
