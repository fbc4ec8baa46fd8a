// The ranking candidates measured for issue #23: each does what it says when turned on (or off).
import { describe, expect, it } from 'vitest';
import type { SearchableTool } from './tool-document';
import { createToolIndex, DEFAULT_TUNING, scopeForTools, type IndexTuning } from './tool-index';

const tool = (toolName: string, description: string): SearchableTool => ({
  serverId: 's',
  serverName: 's',
  toolName,
  modelName: `mcp__s__${toolName}`,
  description,
  definition: { name: toolName, inputSchema: { type: 'object' } },
});

function found(tools: SearchableTool[], query: string, change: Partial<IndexTuning>): string[] {
  const index = createToolIndex({ ...DEFAULT_TUNING, ...change });
  index.upsertServer('s', tools);
  return index.search(query, { scope: scopeForTools(tools) }).matches.map((m) => m.ref.toolName);
}

describe('ranking candidates', () => {
  it('query-time expansion capped by IDF leaves out a related word most tools hold', () => {
    // "share" is related to "stock" (related-terms.ts); here every tool says "share".
    const tools = [tool('a', 'Share a file.'), tool('b', 'Share a link.'), tool('c', 'Share a note.')];
    expect(found(tools, 'stock', {})).toHaveLength(3);
    expect(found(tools, 'stock', { relatedMaxShare: 0.5 })).toEqual([]);
  });

  it('pseudo-relevance feedback finds a sibling of the best match that shares none of the query words', () => {
    const tools = [
      tool('zorbl', 'Zorbl the flux capacitor.'),
      tool('charge', 'Charge a flux capacitor.'),
      tool('other', 'Bake bread.'),
    ];
    expect(found(tools, 'zorbl', {})).toEqual(['zorbl']);
    expect(found(tools, 'zorbl', { feedbackTerms: 5, feedbackWeight: 0.3 })).toEqual(['zorbl', 'charge']);
  });

  it('query-term frequency weighs a word the request repeats', () => {
    const tools = [tool('douban', 'Douban rank.'), tool('pdf', 'Write a PDF report.')];
    expect(found(tools, 'pdf report douban douban douban', { repeatWeight: 0 })[0]).toBe('pdf');
    expect(found(tools, 'pdf report douban douban douban', { repeatWeight: 1 })[0]).toBe('douban');
  });

  it('term proximity (on by default) puts the tool whose text holds the query words together first', () => {
    // The same words in both; only their order differs.
    const tools = [
      tool('apart', 'Price history for a market, with a stock list.'),
      tool('together', 'Stock price history for a market, with a list.'),
    ];
    const query = 'current stock price';
    expect(found(tools, query, {})).toEqual(['together', 'apart']);
    expect(found(tools, query, { proximityWeight: 0 })[0]).toBe('apart');
  });

  it('catalog co-occurrence (on by default) finds the swimlane tool for "kanban" though it never says kanban', () => {
    // Both kanban tools also say "swimlane", which few other tools of this catalog do: the catalog itself relates
    // the two words (neither is in the hand-written word lists).
    const tools = [
      tool('add_card', 'Add a card to a kanban swimlane.'),
      tool('move_card', 'Move a card to another kanban swimlane.'),
      tool('list_swimlanes', 'List the swimlanes of a board.'),
      tool('weather', 'Weather forecast for a city.'),
      tool('stock_price', 'Stock price of a company.'),
      tool('translate', 'Translate text between languages.'),
      tool('route', 'Driving directions between two places.'),
      tool('news', 'Top news headlines of the day.'),
      tool('calculator', 'Evaluate a math expression.'),
    ];
    const query = 'show my kanban';
    expect(found(tools, query, { cooccurrenceTerms: 0 })).toEqual(['add_card', 'move_card']);
    const withCooccurrence = found(tools, query, {});
    expect(withCooccurrence).toHaveLength(3);
    expect(withCooccurrence[2]).toBe('list_swimlanes');
  });
});
