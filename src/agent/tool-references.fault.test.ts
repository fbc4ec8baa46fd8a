// A history whose tool references outlive their tools (a server switched off, the mode changed) still makes a request
// the real API accepts: the contract fake's rules judge the request the adapter would send.
import { describe, expect, it } from 'vitest';
import { promptTokens } from '../../test/fakes/fake-anthropic-cache';
import { contractViolation } from '../../test/fakes/fake-anthropic-contract';
import { invalidRequestReason } from '../../test/fakes/fake-anthropic-validate';
import { toParams } from './anthropic-model';
import type { ModelMessage } from './model-port';
import type { ModelTool } from '../domain/tool';
import { fitHistoryToTools } from './tool-references';

const schema = { type: 'object', properties: {} };
const custom = (name: string, deferred = false): ModelTool => ({
  name,
  description: name,
  input_schema: schema,
  ...(deferred ? { defer_loading: true } : {}),
});
const bm25: ModelTool = { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };

/** The API's answer to the request the adapter sends: null when accepted, else its 400 message. */
function refusal(messages: readonly ModelMessage[], tools: readonly ModelTool[]): string | null {
  const body: Record<string, unknown> = { ...toParams({ model: 'claude-sonnet-5', maxTokens: 1024, messages, tools }) };
  return (
    invalidRequestReason(body) ??
    contractViolation(body, { headers: {}, contextWindowTokens: 200_000, inputTokens: promptTokens(body) })
  );
}

/** Anthropic mode found `mcp__a__echo` with tool_search; the server-side search found `mcp__a__add`; both were used. */
const history: ModelMessage[] = [
  { role: 'user', content: [{ type: 'text', text: 'echo and add' }] },
  { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'tool_search', input: { query: 'echo' } }] },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'tool_reference', tool_name: 'mcp__a__echo' }] },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'tool_search_tool_bm25', input: { query: 'add' } },
      {
        type: 'tool_search_tool_result',
        tool_use_id: 'srvtoolu_1',
        content: {
          type: 'tool_search_tool_search_result',
          tool_references: [{ type: 'tool_reference', tool_name: 'mcp__a__add' }],
        },
      },
      { type: 'text', text: 'Done.' },
    ],
  },
  { role: 'user', content: [{ type: 'text', text: 'again' }] },
];

describe('fitHistoryToTools', () => {
  it('a server switched off: its tools’ references become notes, and the request is accepted', () => {
    const tools = [bm25, custom('mcp__b__other', true)];
    expect(refusal(history, tools)).toMatch(/Tool reference 'mcp__a__echo' has no corresponding tool definition/);
    const fitted = fitHistoryToTools(history, tools);
    expect(refusal(fitted, tools)).toBeNull();
    expect(JSON.stringify(fitted[2])).toContain('The tool mcp__a__echo is not available here any more.');
    expect(JSON.stringify(fitted[3])).toContain('"tool_references":[]');
  });

  it('a switch to client mode: the API’s own search blocks are left out, the rest of the answer stays', () => {
    const tools = [custom('tool_search'), custom('mcp__a__echo'), custom('mcp__a__add')];
    const fitted = fitHistoryToTools(history, tools);
    expect(refusal(fitted, tools)).toBeNull();
    expect(fitted[3]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] });
    expect(fitted[2]).toEqual(history[2]);
  });

  it('keeps the history as it is when every reference resolves', () => {
    const tools = [bm25, custom('mcp__a__echo', true), custom('mcp__a__add', true)];
    expect(fitHistoryToTools(history, tools)).toEqual(history);
    expect(refusal(history, tools)).toBeNull();
  });
});
