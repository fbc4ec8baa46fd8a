import { describe, expect, it } from 'vitest';
import { ToolSearchSettings } from '../domain/tool-search-settings';
import type { SearchableTool } from './tool-document';
import { createToolIndex } from './tool-index';
import {
  answerToolSearch,
  formatToolSearchResult,
  parseToolSearchInput,
  toolReferenceBlocks,
  toolSearchToolDefinition,
} from './tool-search-tool';

function tool(serverId: string, toolName: string, description: string): SearchableTool {
  return {
    serverId,
    serverName: serverId,
    toolName,
    modelName: `mcp__${serverId}__${toolName}`,
    description,
    definition: { name: toolName, inputSchema: { type: 'object' } },
  };
}

const TOOLS = [
  tool('mail', 'send_email', 'Send an email. Supports attachments.'),
  tool('mail', 'list_inbox', 'List the inbox.'),
  tool('bank', 'send_money', 'Send money to an account.'),
];
const index = createToolIndex();
index.upsertServer('mail', TOOLS.slice(0, 2));
index.upsertServer('bank', TOOLS.slice(2));
const SETTINGS = ToolSearchSettings.parse({});
const context = { index, tools: TOOLS.slice(0, 2), settings: SETTINGS, loadedTools: [], now: 100 };

describe('the tool_search tool', () => {
  it('is defined with a query and an optional limit', () => {
    const definition = toolSearchToolDefinition();
    expect(definition.name).toBe('tool_search');
    expect(definition.input_schema).toMatchObject({
      required: ['query'],
      properties: { query: { type: 'string' }, limit: { type: 'integer' } },
    });
    expect(JSON.stringify(toolSearchToolDefinition('regex').input_schema)).toContain('regular expression');
  });

  it('reads its input, clamping the limit', () => {
    expect(parseToolSearchInput({ query: 'mail', limit: 500 })).toEqual({ query: 'mail', limit: 20 });
    expect(parseToolSearchInput({ query: 'mail' })).toEqual({ query: 'mail', limit: 5 });
    for (const input of [{ limit: 2 }, 'mail', null]) {
      const parsed = parseToolSearchInput(input);
      expect('error' in parsed && parsed.error).toContain('"query"');
    }
  });

  it('answers with one line per tool, and loads what it found', () => {
    const answer = answerToolSearch({ query: 'send email' }, context);
    expect(answer.isError).toBe(false);
    expect(answer.content).toBe(
      'Found 2 tools for "send email"; they are loaded and you can call them now:\n' +
        '- mcp__mail__send_email (server: mail) — Send an email.\n' +
        '- mcp__mail__list_inbox (server: mail) — List the inbox.',
    );
    expect(answer.loadedTools).toEqual([
      { serverId: 'mail', toolName: 'send_email', lastUsedAt: 100 },
      { serverId: 'mail', toolName: 'list_inbox', lastUsedAt: 100 },
    ]);
  });

  it('counts one tool as one', () => {
    expect(answerToolSearch({ query: 'send email', limit: 1 }, context).content).toBe(
      'Found 1 tool for "send email"; it is loaded and you can call it now:\n' +
        '- mcp__mail__send_email (server: mail) — Send an email.',
    );
  });

  it('never finds a tool outside the thread, however well it matches', () => {
    const answer = answerToolSearch({ query: 'send money to an account' }, context);
    expect(answer.matches.map((m) => m.ref.serverId)).not.toContain('bank');
  });

  it('says so when nothing matches', () => {
    const answer = answerToolSearch({ query: 'zebra' }, context);
    expect(answer).toMatchObject({ isError: false, matches: [] });
    expect(answer.content).toContain('No tools matched "zebra"');
  });

  it('says when even the best match covers under half of the query, so the model can rephrase', () => {
    const weak = answerToolSearch({ query: 'translate invoice inbox spreadsheet' }, context);
    expect(weak.matches[0]?.ref.toolName).toBe('list_inbox');
    expect(weak.content).toContain('None of them matched "translate invoice inbox spreadsheet" well');
    expect(weak.content).toContain('the best covers 1 of its 4 words');
    const good = answerToolSearch({ query: 'list inbox' }, context);
    expect(good.content).not.toContain('matched');
    expect(good.content).toMatch(/^Found/);
  });

  it('reports a bad regex as an error the model can fix', () => {
    const answer = answerToolSearch({ query: '(a+)+' }, { ...context, settings: { ...SETTINGS, strategy: 'regex' } });
    expect(answer).toMatchObject({ isError: true, matches: [], loadedTools: [] });
    expect(answer.content).toContain('refused');
  });

  it('answers with tool_reference blocks in Anthropic mode', () => {
    const answer = answerToolSearch(
      { query: 'inbox', limit: 1 },
      { ...context, settings: { ...SETTINGS, mode: 'anthropic' } },
    );
    expect(answer.content).toEqual([{ type: 'tool_reference', tool_name: 'mcp__mail__list_inbox' }]);
    expect(toolReferenceBlocks([])).toEqual([]);
  });

  it('formats an error result as its message', () => {
    expect(
      formatToolSearchResult('x', {
        ok: false,
        matches: [],
        error: { kind: 'empty-pattern', message: 'The pattern is empty.' },
      }),
    ).toBe('The pattern is empty.');
  });
});
