import { describe, expect, it } from 'vitest';
import type { SearchableTool } from '../search/tool-document';
import { findMentions } from '../search/mentions';
import { mentionOptions } from './mention-options';

const tool = (serverId: string, serverName: string, toolName: string): SearchableTool => ({
  serverId,
  serverName,
  toolName,
  modelName: `mcp__${serverId}__${toolName.replace(/[^a-zA-Z0-9_-]/g, '_')}`,
  description: `${toolName} of ${serverName}`,
  definition: { name: toolName, inputSchema: { type: 'object' } },
});

const servers = [
  { id: 'weather', name: 'Weather' },
  { id: 'my-files', name: 'My files' },
];
const tools = [
  tool('weather', 'Weather', 'forecast'),
  tool('weather', 'Weather', 'search'),
  tool('my-files', 'My files', 'search'),
  tool('my-files', 'My files', 'read file'),
];

describe("the composer's @ choices", () => {
  it('lists servers first, then tools, and filters by prefix before substring before server name', () => {
    expect(mentionOptions(servers, tools, '').map((o) => `${o.kind}:${o.label}`)).toEqual([
      'server:Weather',
      'server:My files',
      'tool:forecast',
      'tool:search',
      'tool:search',
      'tool:read file',
    ]);
    expect(mentionOptions(servers, tools, 'fi').map((o) => o.label)).toEqual(['My files', 'read file', 'search']);
    expect(mentionOptions(servers, tools, 'xyz')).toEqual([]);
    expect(mentionOptions(servers, tools, '').find((o) => o.label === 'My files')?.detail).toBe('server · 2 tools');
  });

  it('inserts names that mention exactly the picked server or tool', () => {
    for (const option of mentionOptions(servers, tools, '')) {
      const found = findMentions(`please use @${option.insert}, thanks`, tools);
      const expected =
        option.kind === 'server'
          ? tools.filter((t) => `server:${t.serverId}` === option.key)
          : tools.filter((t) => `tool:${t.serverId}:${t.toolName}` === option.key);
      expect(found, option.insert).toEqual(expected.map((t) => ({ serverId: t.serverId, toolName: t.toolName })));
    }
  });

  it('uses server/tool for a name two servers share, and the model name for a name with spaces', () => {
    const inserts = mentionOptions(servers, tools, '').map((o) => o.insert);
    expect(inserts).toEqual([
      'Weather',
      'my-files',
      'forecast',
      'Weather/search',
      'my-files/search',
      'mcp__my-files__read_file',
    ]);
  });
});
