// Prerequisite tools (issue #23, round 7): the tools that supply a best tool's inputs come up with it.
import { describe, expect, it } from 'vitest';
import type { SearchableTool } from './tool-document';
import { createToolIndex, DEFAULT_TUNING, scopeForTools, type IndexTuning, type SearchScope } from './tool-index';

function tool(serverId: string, toolName: string, description: string, required: string[] = []): SearchableTool {
  const properties = Object.fromEntries(required.map((name) => [name, { type: 'string' }]));
  return {
    serverId,
    serverName: serverId,
    toolName,
    modelName: `mcp__${serverId}__${toolName}`,
    description,
    definition: { name: toolName, inputSchema: { type: 'object', properties, required } },
  };
}

function found(tools: SearchableTool[], query: string, change: Partial<IndexTuning> = {}, scope?: SearchScope) {
  const index = createToolIndex({ ...DEFAULT_TUNING, ...change });
  for (const serverId of new Set(tools.map((t) => t.serverId))) {
    index.upsertServer(
      serverId,
      tools.filter((t) => t.serverId === serverId),
    );
  }
  return index.search(query, { scope: scope ?? scopeForTools(tools) }).matches.map((m) => m.modelName);
}

const maps = [
  tool('maps', 'find_parking', 'Find parking facilities near a point.', ['latitude', 'longitude']),
  tool('maps', 'geocode_address', 'Coordinates of an address or a place in a city.', ['address']),
  tool('maps', 'reverse_geocode', 'Convert coordinates to an address.', ['latitude', 'longitude']),
  tool(
    'meteo',
    'city_weather',
    'Forecast of rain, wind, snow and sun, hour by hour and day by day, with storm warnings and pollen, for one city.',
    ['city', 'days'],
  ),
];

describe('prerequisite tools', () => {
  it('a search for parking brings up the tool that turns a place into the coordinates parking needs', () => {
    const query = 'where can I park in the city';
    expect(found(maps, query, { prerequisiteWeight: 0 })).toEqual([
      'mcp__maps__find_parking',
      'mcp__meteo__city_weather',
      'mcp__maps__geocode_address',
    ]);
    expect(found(maps, query)).toEqual([
      'mcp__maps__find_parking',
      'mcp__maps__geocode_address',
      'mcp__meteo__city_weather',
    ]);
  });

  it('a best match that covers under half of the request brings no prerequisites (small talk, a guess)', () => {
    const index = createToolIndex(DEFAULT_TUNING);
    index.upsertServer('maps', maps);
    const result = index.search('thanks, we parked by the lake and went for a swim', { scope: scopeForTools(maps) });
    expect(result).toMatchObject({ ok: true, weakMatch: { matchedWords: 1 } });
    expect(result.matches.map((m) => m.modelName)).toEqual(['mcp__maps__find_parking']);
  });

  it('a tool named after an input the best tool needs comes up, though it needs two inputs itself', () => {
    const trains = [
      tool('rail', 'get_tickets', 'Seats left on a connection.', ['date', 'fromStation', 'toStation']),
      tool('rail', 'get_station_code_by_names', 'Look up the codes of stations by their names.', [
        'stationNames',
        'city',
      ]),
      tool('rail', 'get_delays', 'Trains that left late.', ['date', 'trainNumber']),
    ];
    const query = 'seats left between two stations';
    expect(found(trains, query, { prerequisiteWeight: 0 })).toEqual([
      'mcp__rail__get_tickets',
      'mcp__rail__get_delays',
      'mcp__rail__get_station_code_by_names',
    ]);
    expect(found(trains, query)).toEqual([
      'mcp__rail__get_tickets',
      'mcp__rail__get_station_code_by_names',
      'mcp__rail__get_delays',
    ]);
  });

  it('lifts no tool that needs the same input, no tool of another server, and no tool switched off', () => {
    // Each of these is reached by "city" and would rise without its rule.
    const tools = [
      ...maps,
      tool('meteo', 'city_guide', 'A guide to the city.', ['city', 'topic']),
      tool(
        'maps',
        'altitude',
        'Altitude above the sea of any point on the map, in metres and in feet, with the slope around it, in a city.',
        ['latitude'],
      ),
      tool('geo', 'geocode_place', 'Coordinates of a place in a city.', ['place']),
    ];
    const scope: SearchScope = {
      serverIds: new Set(['maps', 'geo', 'meteo']),
      isToolEnabled: (ref) => ref.toolName !== 'geocode_address',
    };
    const query = 'where can I park in the city';
    const unlifted = found(tools, query, { prerequisiteWeight: 0 }, scope);
    expect(unlifted).toContain('mcp__maps__altitude');
    expect(unlifted).toContain('mcp__geo__geocode_place');
    expect(found(tools, query, {}, scope)).toEqual(unlifted);
  });

  it('a server of many tools that need nothing lifts at most 3 of them, so another server’s match stays in view', () => {
    const github = [
      tool('gh', 'create_issue', 'Open a new issue in a repository.', ['owner', 'repo', 'title']),
      ...['labels', 'milestones', 'templates', 'assignees', 'reactions', 'statistics', 'watchers'].map((name) =>
        tool('gh', `list_${name}`, `The ${name} of issues.`),
      ),
    ];
    const tools = [...github, tool('jira', 'create_ticket', 'File a new ticket about an issue.', ['summary'])];
    const top = (change: Partial<IndexTuning>) => found(tools, 'open a new issue', change).slice(0, 5);
    expect(top({ prerequisitesPerTool: 1000 })).not.toContain('mcp__jira__create_ticket');
    expect(top({})).toEqual([
      'mcp__gh__create_issue',
      'mcp__gh__list_labels',
      'mcp__gh__list_milestones',
      'mcp__gh__list_templates',
      'mcp__jira__create_ticket',
    ]);
  });

  it('only tools the request reached rise: a prerequisite that none of its words found stays out', () => {
    const tools = [
      tool('gh', 'create_issue', 'Open a new issue in a repository.', ['owner', 'repo', 'title']),
      tool('gh', 'get_me', 'The signed-in account.'),
    ];
    expect(found(tools, 'open a new issue')).toEqual(['mcp__gh__create_issue']);
  });

  it('a best tool that needs no input lifts nothing', () => {
    const tools = [
      tool('feed', 'top_stories', 'Top stories of the day.'),
      tool('feed', 'item', 'One item by its number.', ['id']),
    ];
    expect(found(tools, 'top stories today')).toEqual(['mcp__feed__top_stories']);
  });
});
