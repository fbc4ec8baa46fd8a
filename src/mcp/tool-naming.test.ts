import { describe, expect, it } from 'vitest';
import { ServerId } from '../domain/server-config';
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

describe('server ids and model names (review: server-id prefix ambiguity)', () => {
  /** Every string of 1 to `max` characters over `alphabet`. */
  const strings = (alphabet: string, max: number): string[] => {
    const all: string[] = [];
    let level = [''];
    for (let n = 1; n <= max; n++) {
      level = level.flatMap((s) => [...alphabet].map((c) => s + c));
      all.push(...level);
    }
    return all;
  };
  const isValidId = (id: string) => ServerId.safeParse(id).success;
  const candidates = strings('a_-', 4);
  const ids = candidates.filter(isValidId);
  const tools = strings('a_', 4);

  it('refuses the ids that would make one name two tools ("__" inside, "_" at the end), and "_" at the start', () => {
    for (const id of ['a__b', 'a_', '_a', 'a___b']) expect(isValidId(id)).toBe(false);
    for (const id of ['a', 'a_b', 'a-b', 'a-', '-a', 'a_b_c']) expect(isValidId(id)).toBe(true);
    // Each refused shape, were it allowed, names another server's tool the same.
    expect(modelToolName('a', 'b__c')).toBe(modelToolName('a__b', 'c'));
    expect(modelToolName('a', '_x')).toBe(modelToolName('a_', 'x'));
  });

  it('gives every (valid id, tool) pair its own name, whose prefix is its own server only', () => {
    const owners = new Map<string, string>();
    for (const id of ids)
      for (const tool of tools) {
        const name = modelToolName(id, tool);
        expect(owners.get(name), `${id} / ${tool} and ${owners.get(name)}`).toBeUndefined();
        owners.set(name, `${id} / ${tool}`);
        // The thread finds the server of a name it does not know by this prefix (thread-tools.ts): never another's.
        expect(ids.filter((other) => name.startsWith(modelNamePrefix(other)))).toEqual([id]);
      }
    expect(ids.length).toBeGreaterThan(40);
  });

  it('would not without the rule: some refused id shares a name with a valid one', () => {
    const refused = candidates.filter((id) => !isValidId(id) && /^[A-Za-z0-9_-]+$/.test(id));
    const names = new Set(ids.flatMap((id) => tools.map((tool) => modelToolName(id, tool))));
    const clashing = refused.filter((id) => tools.some((tool) => names.has(modelToolName(id, tool))));
    expect(clashing).toEqual(expect.arrayContaining(['a_', 'a__', 'a__a', 'aa__', '-a__']));
    // Only those two shapes; a leading "_" is refused too, though no valid id's names begin "mcp___".
    expect(clashing.filter((id) => !id.includes('__') && !id.endsWith('_'))).toEqual([]);
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
