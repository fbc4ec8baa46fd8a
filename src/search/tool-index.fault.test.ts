// Bad tool catalogs (issue #23): each tool is indexed or refused with a reason, and the index stays usable.
import { describe, expect, it } from 'vitest';
import { buildIndexInChunks } from './chunked-build';
import type { SearchableTool } from './tool-document';
import { createToolIndex, MAX_INDEXED_TOOLS, scopeForTools } from './tool-index';

function tool(serverId: string, toolName: string, description = ''): SearchableTool {
  return {
    serverId,
    serverName: serverId,
    toolName,
    modelName: `mcp__${serverId}__${toolName}`,
    description,
    definition: { name: toolName, description, inputSchema: { type: 'object' } },
  };
}

const WORDS = ['weather', 'invoice', 'calendar', 'stock', 'translate', 'image', 'email', 'music', 'route', 'recipe'];

describe('the tool index given bad input', () => {
  it('indexes a catalog of 50,000 tools in chunks and still finds one tool by its own words', async () => {
    const many = Array.from({ length: 50_000 }, (_, i) =>
      tool(`server${i % 500}`, `tool_${i}`, `Does ${WORDS[i % 10]} work number ${i} for ${WORDS[(i * 7) % 10]}.`),
    );
    many[31_337] = tool('server337', 'tool_31337', 'Reticulates splines for the zeppelin hangar.');
    const index = await buildIndexInChunks(many, { yield: () => new Promise((resolve) => setTimeout(resolve, 0)) });
    expect(index.size).toBe(50_000);
    const result = index.search('reticulate zeppelin splines', { scope: scopeForTools(many), limit: 3 });
    expect(result.matches[0]?.ref).toEqual({ serverId: 'server337', toolName: 'tool_31337' });
  }, 120_000);

  it('refuses tools beyond the index capacity, saying why, and takes them once there is room', () => {
    expect(MAX_INDEXED_TOOLS).toBeGreaterThanOrEqual(50_000);
    const index = createToolIndex(undefined, { maxTools: 3 });
    index.upsertServer('a', [tool('a', 'one', 'One.'), tool('a', 'two', 'Two.')]);
    const report = index.upsertServer('b', [tool('b', 'three', 'Three.'), tool('b', 'four', 'Four.')]);
    expect(report).toEqual({
      indexed: 1,
      refused: [{ toolName: 'four', reason: 'the tool index is full (3 tools)' }],
      notes: [],
    });
    index.removeServer('a');
    expect(index.upsertServer('b', [tool('b', 'three', 'Three.'), tool('b', 'four', 'Four.')])).toMatchObject({
      indexed: 2,
      refused: [],
    });
  });

  it('indexes a tool with an empty description by its name, and one with no word at all for regex only', () => {
    const index = createToolIndex();
    const report = index.upsertServer('s', [tool('s', 'get_weather'), tool('s', '☂☃', '—')]);
    expect(report).toMatchObject({ indexed: 2, refused: [] });
    expect(report.notes).toEqual([
      '☂☃: its name and description hold no searchable word; only a regex search finds it',
    ]);
    const scope = scopeForTools(index.tools());
    expect(index.search('weather', { scope }).matches.map((m) => m.ref.toolName)).toEqual(['get_weather']);
    expect(index.search('☂', { scope, strategy: 'regex' }).matches.map((m) => m.ref.toolName)).toEqual(['☂☃']);
  });

  it('indexes a 100 kB description by its start, notes the cut, and keeps the index small', () => {
    const index = createToolIndex();
    const huge = `Converts currencies at live rates. ${'lorem ipsum dolor '.repeat(6_000)} zanzibar`;
    expect(huge.length).toBeGreaterThan(100_000);
    const report = index.upsertServer('s', [tool('s', 'convert', huge), tool('s', 'other', 'Lorem tool.')]);
    expect(report.indexed).toBe(2);
    expect(report.notes[0]).toMatch(/^convert: only the first 4,000 of its 108,\d{3} description characters/);
    const scope = scopeForTools(index.tools());
    expect(index.search('currency rates', { scope }).matches[0]?.ref.toolName).toBe('convert');
    // Words past the cut are not indexed: the tool cannot flood results for them.
    expect(index.search('zanzibar', { scope }).matches).toEqual([]);
    // And the answer's one-line description stays one short line.
    expect(index.search('currency', { scope }).matches[0]?.description).toBe('Converts currencies at live rates.');
  });

  it('finds tools named in scripts the tokenizer has no rules for (Ethiopic, Tifinagh, Cherokee)', () => {
    const index = createToolIndex();
    const tools = [tool('s', 'ሰላም_መላክ', 'ⴰⵙⵉⵍⵍⴰ ⵏ ⵜⵉⵔⵔⴰ'), tool('s', 'ᏣᎳᎩ', ''), tool('s', 'send_mail', 'Send mail.')];
    expect(index.upsertServer('s', tools)).toMatchObject({ indexed: 3, refused: [], notes: [] });
    const scope = scopeForTools(tools);
    expect(index.search('መላክ', { scope }).matches.map((m) => m.ref.toolName)).toEqual(['ሰላም_መላክ']);
    expect(index.search('ⵜⵉⵔⵔⴰ', { scope }).matches.map((m) => m.ref.toolName)).toEqual(['ሰላም_መላክ']);
    expect(index.search('ᏣᎳᎩ', { scope }).matches.map((m) => m.ref.toolName)).toEqual(['ᏣᎳᎩ']);
  });

  it('keeps the same tool on two servers apart, and refuses a second tool of one name on one server', () => {
    const index = createToolIndex();
    index.upsertServer('a', [tool('a', 'search', 'Search the web.')]);
    const report = index.upsertServer('b', [tool('b', 'search', 'Search the web.'), tool('b', 'search', 'Other.')]);
    expect(report).toEqual({
      indexed: 1,
      refused: [{ toolName: 'search', reason: 'the server lists a second tool named "search"; the first one is kept' }],
      notes: [],
    });
    const matches = index.search('search web', { scope: scopeForTools(index.tools()) }).matches;
    expect(matches.map((m) => m.ref)).toEqual([
      { serverId: 'a', toolName: 'search' },
      { serverId: 'b', toolName: 'search' },
    ]);
    expect(index.size).toBe(2);
  });

  it('refuses a tool handed to the wrong server, naming both', () => {
    const index = createToolIndex();
    const report = index.upsertServer('a', [tool('b', 'x', 'X.')]);
    expect(report.refused).toEqual([{ toolName: 'x', reason: 'it belongs to server "b", not "a"' }]);
    expect(index.size).toBe(0);
  });
});
