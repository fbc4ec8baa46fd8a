import { describe, expect, it } from 'vitest';
import { MAX_TOOL_NAME_LENGTH, ToolNameMap, modelNamePrefix, modelToolName } from './tool-naming';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

describe('modelToolName', () => {
  it('keeps a clean name readable', () => {
    expect(modelToolName('weather', 'get_forecast')).toBe('mcp__weather__get_forecast');
  });

  it("begins every name of a server's tools with its prefix, sanitized or not", () => {
    for (const [server, tool] of [
      ['weather', 'get_forecast'],
      ['my.files', 'read file'],
    ] as const)
      expect(modelToolName(server, tool).startsWith(modelNamePrefix(server))).toBe(true);
    expect(modelNamePrefix('my.files')).toBe('mcp__my_files__');
  });

  it('sanitizes characters the API refuses and adds a hash so the name stays unique', () => {
    const dotted = modelToolName('files', 'read.file');
    const spaced = modelToolName('files', 'read file');
    expect(dotted).toMatch(VALID);
    expect(spaced).toMatch(VALID);
    expect(dotted).not.toBe(spaced);
    expect(dotted.startsWith('mcp__files__read_file_')).toBe(true);
    expect(modelToolName('files', 'read_file')).not.toBe(dotted);
  });

  it('truncates long names to 64 characters without collisions', () => {
    const long = 'a'.repeat(80);
    const one = modelToolName('server', `${long}1`);
    const two = modelToolName('server', `${long}2`);
    expect(one).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(one).toMatch(VALID);
    expect(one).not.toBe(two);
  });

  it('is stable: the same pair always gives the same name', () => {
    expect(modelToolName('s', 'ünïcode tool')).toBe(modelToolName('s', 'ünïcode tool'));
  });

  it('keeps server and tool apart: server ids cannot contain "__"', () => {
    expect(modelToolName('a', 'b__c')).toBe('mcp__a__b__c');
  });
});

describe('ToolNameMap', () => {
  it('maps names back to the exact server and tool, across servers with the same tool name', () => {
    const refs = [
      { serverId: 'one', toolName: 'search' },
      { serverId: 'two', toolName: 'search' },
      { serverId: 'two', toolName: 'search!' },
      { serverId: 'two', toolName: 'search?' },
    ];
    const map = new ToolNameMap(refs);
    const names = refs.map((ref) => map.nameOf(ref));
    expect(new Set(names).size).toBe(4);
    refs.forEach((ref, i) => expect(map.resolve(names[i]!)).toEqual(ref));
    expect(map.resolve('mcp__three__search')).toBeUndefined();
  });

  it('names tools added later as a map built from all of them in that order would', () => {
    const first = Array.from({ length: 300 }, (_, i) => ({
      serverId: `s${i % 3}`,
      toolName: `${'y'.repeat(70)}.${i}`,
    }));
    const later = Array.from({ length: 300 }, (_, i) => ({ serverId: 's9', toolName: `${'y'.repeat(70)}.${i}` }));
    const grown = new ToolNameMap(first);
    grown.addAll(later);
    const whole = new ToolNameMap([...first, ...later]);
    for (const ref of [...first, ...later]) {
      expect(grown.nameOf(ref)).toBe(whole.nameOf(ref));
      expect(grown.resolve(whole.nameOf(ref)!)).toEqual(ref);
    }
  });

  it('stays unique over thousands of similar names', () => {
    const refs = Array.from({ length: 5000 }, (_, i) => ({
      serverId: `s${i % 7}`,
      toolName: `${'x'.repeat(70)}.${i}`,
    }));
    const map = new ToolNameMap(refs);
    const names = new Set(refs.map((r) => map.nameOf(r)));
    expect(names.size).toBe(5000);
    for (const name of names) expect(name).toMatch(VALID);
  });
});
