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
  tool('maps', 'geocode_address', 'Convert an address or place name to geographic coordinates.', ['address']),
  tool('maps', 'reverse_geocode', 'Convert coordinates to an address.', ['latitude', 'longitude']),
  tool('maps', 'elevation', 'Height above sea level of a point.', ['latitude', 'longitude']),
];

describe('prerequisite tools', () => {
  it('a search for parking also finds the tool that turns a place name into the coordinates it needs', () => {
    expect(found(maps, 'where can I park my car', { prerequisiteWeight: 0 })).toEqual(['mcp__maps__find_parking']);
    expect(found(maps, 'where can I park my car')).toEqual(['mcp__maps__find_parking', 'mcp__maps__geocode_address']);
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
      tool('rail', 'get_station_code_by_names', 'Look up codes.', ['stationNames', 'city']),
      tool('rail', 'get_delays', 'Late arrivals of a connection.', ['date', 'trainNumber']),
    ];
    expect(found(trains, 'seats left', { prerequisiteWeight: 0 })).toEqual(['mcp__rail__get_tickets']);
    expect(found(trains, 'seats left')).toEqual(['mcp__rail__get_tickets', 'mcp__rail__get_station_code_by_names']);
  });

  it('lifts no tool that needs the same input, no tool of another server, and no tool switched off', () => {
    const tools = [
      ...maps,
      tool('maps', 'altitude', 'Altitude of a parallel.', ['latitude']),
      tool('geo', 'geocode_place', 'Coordinates of a place.', ['place']),
    ];
    const scope: SearchScope = {
      serverIds: new Set(['maps', 'geo']),
      isToolEnabled: (ref) => ref.toolName !== 'geocode_address',
    };
    expect(found(tools, 'where can I park my car', {}, scope)).toEqual(['mcp__maps__find_parking']);
  });

  it('a lifted tool stays below the tool that needs it and below better matches of the request', () => {
    const tools = [...maps, tool('maps', 'parking_prices', 'Parking prices and parking fees in the country.')];
    expect(found(tools, 'parking prices')).toEqual([
      'mcp__maps__parking_prices',
      'mcp__maps__find_parking',
      'mcp__maps__geocode_address',
    ]);
  });

  it('a best tool that needs no input lifts nothing', () => {
    const tools = [
      tool('feed', 'top_stories', 'Top stories of the day.'),
      tool('feed', 'item', 'One item by its number.', ['id']),
    ];
    expect(found(tools, 'top stories today')).toEqual(['mcp__feed__top_stories']);
  });
});
