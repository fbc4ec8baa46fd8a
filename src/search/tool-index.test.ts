import { describe, expect, it } from 'vitest';
import { oneLine, type SearchableTool } from './tool-document';
import { createToolIndex, scopeForTools, type SearchScope, type ToolIndex } from './tool-index';

function tool(
  serverId: string,
  toolName: string,
  description = '',
  properties: Record<string, unknown> = {},
): SearchableTool {
  return {
    serverId,
    serverName: `${serverId} server`,
    toolName,
    modelName: `mcp__${serverId}__${toolName}`,
    description,
    definition: { name: toolName, description, inputSchema: { type: 'object', properties } },
  };
}

const WEATHER = [
  tool('weather', 'get_forecast', 'Get the weather forecast for a city.', {
    city: { type: 'string', description: 'City name' },
  }),
  tool('weather', 'get_alerts', 'Severe weather alerts for a US state.'),
];
const FILES = [
  tool('files', 'read_file', 'Read the contents of a file.', {
    path: { type: 'string', description: 'Path of the file' },
  }),
  tool('files', 'write_file', 'Write text to a file, replacing it.'),
  tool('files', 'search', 'Search file names by a pattern.'),
];
const WEB = [
  tool('web', 'search', 'Search the web and return result links.'),
  tool('web', 'fetch_page', 'Fetch a web page as markdown.'),
];

function indexOf(...groups: SearchableTool[][]): ToolIndex {
  const index = createToolIndex();
  for (const group of groups) index.upsertServer(group[0]!.serverId, group);
  return index;
}

const everything = (index: ToolIndex): SearchScope => scopeForTools(index.tools());
const names = (index: ToolIndex, query: string, scope: SearchScope = everything(index), limit = 10) =>
  index.search(query, { scope, limit }).matches.map((m) => m.modelName);

describe('the BM25 tool index', () => {
  it('finds a tool by what it does, best first, with a one-line description', () => {
    const index = indexOf(WEATHER, FILES, WEB);
    const result = index.search('what will the weather be tomorrow in Paris', { scope: everything(index), limit: 3 });
    expect(result.ok).toBe(true);
    expect(result.matches[0]?.modelName).toBe('mcp__weather__get_forecast');
    expect(result.matches[0]?.description).toBe('Get the weather forecast for a city.');
    expect(result.matches[0]?.ref).toEqual({ serverId: 'weather', toolName: 'get_forecast' });
  });

  it('matches parameter names and descriptions', () => {
    const index = indexOf(WEATHER, FILES);
    expect(names(index, 'path', everything(index), 1)).toEqual(['mcp__files__read_file']);
  });

  it('never returns a tool of a server outside the scope, however well it matches', () => {
    const index = indexOf(WEATHER, FILES, WEB);
    const scope: SearchScope = { serverIds: new Set(['files']) };
    const found = names(index, 'search the web for weather forecast', scope);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((name) => name.startsWith('mcp__files__'))).toBe(true);
  });

  it('never returns a tool the user disabled', () => {
    const index = indexOf(FILES);
    const scope: SearchScope = { serverIds: new Set(['files']), isToolEnabled: (ref) => ref.toolName !== 'write_file' };
    expect(names(index, 'write text to a file', scope)).not.toContain('mcp__files__write_file');
  });

  it('returns nothing when the scope is empty', () => {
    const index = indexOf(WEATHER, FILES);
    expect(names(index, 'weather', { serverIds: new Set() })).toEqual([]);
  });

  it('keeps tools with the same name on different servers apart', () => {
    const index = indexOf(FILES, WEB);
    const found = index.search('search', { scope: everything(index) }).matches.map((m) => m.ref);
    expect(found).toEqual(
      expect.arrayContaining([
        { serverId: 'files', toolName: 'search' },
        { serverId: 'web', toolName: 'search' },
      ]),
    );
    const webOnly = names(index, 'search', { serverIds: new Set(['web']) });
    expect(webOnly[0]).toBe('mcp__web__search');
  });

  it('replaces a server’s tools on upsert, leaving the other servers alone', () => {
    const index = indexOf(WEATHER, FILES);
    index.upsertServer('weather', [tool('weather', 'get_tides', 'Tide tables for a harbour.')]);
    expect(index.size).toBe(4);
    expect(names(index, 'forecast alerts')).not.toContain('mcp__weather__get_forecast');
    expect(names(index, 'tide tables harbour')[0]).toBe('mcp__weather__get_tides');
    expect(names(index, 'read a file')[0]).toBe('mcp__files__read_file');
  });

  it('scores after updates exactly as a fresh index would', () => {
    const updated = indexOf(WEATHER, FILES, WEB);
    updated.upsertServer('files', FILES.slice(1));
    updated.removeServer('web');
    const fresh = indexOf(WEATHER, FILES.slice(1));
    for (const query of ['write a file', 'weather alerts', 'search names']) {
      const scope = everything(fresh);
      expect(updated.search(query, { scope }).matches).toEqual(fresh.search(query, { scope }).matches);
    }
  });

  it('forgets a removed server entirely', () => {
    const index = indexOf(WEATHER, FILES);
    index.removeServer('files');
    expect(index.size).toBe(2);
    expect(index.tools().map((t) => t.toolName)).toEqual(['get_forecast', 'get_alerts']);
    expect(names(index, 'read file', { serverIds: new Set(['files', 'weather']) })).toEqual([]);
  });

  it('answers empty, blank and stop-word-only queries with no matches instead of failing', () => {
    const index = indexOf(WEATHER);
    for (const query of ['', '   ', 'the of and', '!!!'])
      expect(index.search(query, { scope: everything(index) })).toEqual({ ok: true, matches: [] });
  });

  it('answers a huge query quickly, reading only its start', () => {
    const index = indexOf(WEATHER, FILES);
    const huge = `weather forecast ${'lorem ipsum dolor '.repeat(50_000)} write file`;
    const started = performance.now();
    const found = names(index, huge);
    expect(performance.now() - started).toBeLessThan(500);
    expect(found[0]).toBe('mcp__weather__get_forecast');
    expect(found).not.toContain('mcp__files__write_file');
  });

  it('finds a tool by the category of the thing asked for ("laptop" → products)', () => {
    const index = indexOf(
      [tool('shop', 'product_search', 'Find products with filters and compare offers.')],
      [tool('games', 'game_finder', 'Find video games to play.')],
    );
    // No word of the request is in the tool's text: only "laptop" → "product" connects them.
    expect(names(index, 'a new laptop with a long battery life')).toEqual(['mcp__shop__product_search']);
  });

  it('is not led astray by words that only qualify a request ("detailed information", "options")', () => {
    const index = indexOf(WEATHER, [
      tool('info', 'company_info', 'Detailed information and options for specific companies.'),
    ]);
    expect(names(index, 'detailed information on the weather forecast options for my specific trip')[0]).toBe(
      'mcp__weather__get_forecast',
    );
    expect(names(index, 'detailed information about a company')[0]).toBe('mcp__info__company_info');
  });

  it('indexes tools without a description by their name', () => {
    const index = indexOf([tool('misc', 'convert_currency'), tool('misc', 'noop')]);
    expect(names(index, 'currency conversion')).toEqual(['mcp__misc__convert_currency']);
  });

  it('finds tools with non-English descriptions, by the same language', () => {
    const index = indexOf(
      [
        tool('cn', 'bing_search', '使用必应搜索指定的关键词，并返回搜索结果列表'),
        tool('cn', 'get_weather', '获取城市天气预报'),
      ],
      [tool('fr', 'meteo', 'Prévisions météo pour une ville')],
    );
    expect(names(index, '天气')[0]).toBe('mcp__cn__get_weather');
    expect(names(index, 'météo ville')[0]).toBe('mcp__fr__meteo');
    expect(names(index, 'search')[0]).toBe('mcp__cn__bing_search');
  });

  it('clamps the limit to 1..50', () => {
    const many = Array.from({ length: 80 }, (_, i) => tool('big', `tool_${i}`, 'Does a thing with files.'));
    const index = indexOf(many);
    expect(index.search('files', { scope: everything(index), limit: 0 }).matches).toHaveLength(1);
    expect(index.search('files', { scope: everything(index), limit: 500 }).matches).toHaveLength(50);
    expect(index.search('files', { scope: everything(index) }).matches).toHaveLength(10);
  });

  it('ignores tools handed to a server they do not belong to', () => {
    const index = createToolIndex();
    index.upsertServer('weather', [...WEATHER, FILES[0]!]);
    expect(index.size).toBe(2);
  });
});

describe('oneLine', () => {
  it('keeps the first sentence, not cut at an abbreviation, and shortens long ones', () => {
    expect(oneLine('Reads a file, e.g. a log. Then more.')).toBe('Reads a file, e.g. a log.');
    expect(oneLine('获取天气预报。更多信息')).toBe('获取天气预报。');
    expect(oneLine('  multi\n line  ')).toBe('multi line');
    expect(oneLine('x'.repeat(300))).toHaveLength(160);
    expect(oneLine('')).toBe('');
  });
});
