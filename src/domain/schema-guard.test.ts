import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Message } from './message';
import { ToolCatalog } from './tool-catalog';
import { schemaGuard } from './schema-guard';

enum Numbered {
  One = 1,
}

/** What zod gives for `value`, for comparing with the guard's answer. */
function zodSays(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  return result.success ? { ok: true as const, data: result.data } : { ok: false as const };
}

const message = {
  id: 'm1',
  threadId: 't1',
  seq: 3,
  role: 'assistant',
  status: 'complete',
  blocks: [
    { type: 'thinking', thinking: 'Let me check.', signature: 'sig' },
    { type: 'redacted_thinking', data: 'xx' },
    { type: 'text', text: 'Calling **echo**.' },
    {
      type: 'tool_use',
      id: 'toolu_1',
      name: 'mcp__everything__echo',
      input: { message: 'hi', nested: [1, null, { a: true }] },
    },
    {
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      is_error: false,
      content: [
        { type: 'text', text: 'Echo: hi' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } },
        { type: 'tool_reference', tool_name: 'echo' },
      ],
    },
  ],
  error: 'cut short',
  trace: [
    {
      kind: 'model-call',
      model: 'claude',
      toolNames: ['a'],
      toolTokens: 10,
      usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 3 },
      durationMs: 1.5,
      stopReason: 'tool_use',
      costUsd: 0.25,
    },
    { kind: 'compaction', method: 'client', tokensBefore: 160_000, tokensAfter: 9_000, note: 'refused' },
    {
      kind: 'tool-call',
      toolUseId: 'toolu_1',
      serverId: 's',
      tool: 'echo',
      arguments: { message: 'hi' },
      approval: { decision: 'auto-allow', by: 'annotation' },
      resultSummary: 'ok',
      isError: false,
      durationMs: 4,
    },
    { kind: 'tool-search', query: 'echo', strategy: 'bm25', picks: [{ name: 'echo', score: 2.5 }] },
  ],
  createdAt: 100,
  updatedAt: 200,
};

describe('schema guards answer yes only where zod would give the same value back', () => {
  it('takes a well-formed message with every block and trace kind as it is', () => {
    expect(zodSays(Message, message)).toEqual({ ok: true, data: message });
    expect(schemaGuard(Message)(message)).toBe(true);
  });

  it.each([
    ['a key the schema does not name (zod strips it)', { ...message, extra: 1 }],
    ['a missing key that has a default (zod fills it)', { ...message, trace: undefined }],
    ['an optional key present as undefined', { ...message, error: undefined }],
    ['a negative sequence number', { ...message, seq: -1 }],
    ['a fractional sequence number', { ...message, seq: 1.5 }],
    ['NaN as a time', { ...message, createdAt: Number.NaN }],
    ['an empty id', { ...message, id: '' }],
    ['an unknown status', { ...message, status: 'done' }],
    ['an unknown block type', { ...message, blocks: [{ type: 'video', url: 'x' }] }],
    ['a block missing its text', { ...message, blocks: [{ type: 'text' }] }],
    ['a tool_use block without input', { ...message, blocks: [{ type: 'tool_use', id: 'a', name: 'b' }] }],
    ['blocks as a string', { ...message, blocks: 'nope' }],
    [
      'an array with a named property (zod returns a plain array)',
      { ...message, blocks: Object.assign([...message.blocks], { note: 'x' }) },
    ],
    [
      'an array with a hole',
      { ...message, blocks: Object.assign(new Array<unknown>(3), { 0: message.blocks[0], 2: message.blocks[2] }) },
    ],
    ['a Date instead of an object', Object.assign(new Date(), message)],
    ['null', null],
  ])('asks zod about %s', (_name, value) => {
    expect(schemaGuard(Message)(value)).toBe(false);
  });

  it.each([
    ['a refinement', z.object({ a: z.string().refine((s) => s !== 'no') }), { a: 'no' }],
    ['a transform', z.object({ a: z.string().trim() }), { a: ' padded ' }],
    ['a string format', z.object({ a: z.url() }), { a: 'not a url' }],
    [
      'a union of objects (zod keeps the first that parses)',
      z.union([z.object({ a: z.string() }), z.object({ a: z.string(), b: z.string() })]),
      { a: 'x', b: 'y' },
    ],
    ['a strict object', z.strictObject({ a: z.string() }), { a: 'x', b: 'y' }],
    ['a typed catchall', z.object({ a: z.string() }).catchall(z.string()), { a: 'x', b: 1 }],
    [
      'a loose object with an own __proto__ key (zod leaves it out)',
      z.looseObject({ a: z.string() }),
      JSON.parse('{"a":"x","__proto__":{"b":1}}') as unknown,
    ],
    ['an exclusive union', z.xor([z.string(), z.literal('a')]), 'a'],
    ['a TypeScript enum (reverse-mapped)', z.enum(Numbered), 'One'],
    ['a default under .optional() (zod fills the absent key)', z.object({ a: z.string().default('x').optional() }), {}],
    ['a default under .nullable().optional()', z.object({ a: z.string().default('x').nullable().optional() }), {}],
    ['a prefault under .optional()', z.object({ a: z.string().prefault('x').optional() }), {}],
    ['an astral character against min(2) (zod counts code points)', z.string().min(2), '😀'],
    ['a key Object.prototype has (zod reads the inherited value)', z.object({ constructor: z.unknown() }), { x: 1 }],
    ['a shape key named __proto__ (zod skips it)', z.object({ ['__proto__']: z.unknown() }), { x: 1 }],
    ['a Symbol key in the shape', z.object({ [Symbol.for('s')]: z.string() }), {}],
    [
      'an object with a null prototype',
      z.object({ a: z.string() }),
      Object.assign(Object.create(null) as object, { a: 'x' }),
    ],
  ] as const)(
    'asks zod about %s, where zod would refuse or reshape the value',
    (_name, schema: z.ZodType, value: unknown) => {
      const zod = zodSays(schema, value);
      // The case is real: zod refuses the value or gives back something else.
      expect(zod.ok && isDeepStrictEqual(zod.data, value)).toBe(false);
      expect(schemaGuard(schema)(value)).toBe(false);
    },
  );

  it('takes a stored tool catalog as it is, with the keys a server adds to its tools (loose objects)', () => {
    const catalog = {
      profileId: 'p1',
      serverId: 'files',
      hash: 'h',
      fetchedAt: 1,
      tools: [
        {
          name: 'read',
          description: 'Reads a file',
          inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
          annotations: { readOnlyHint: true },
          _meta: { ui: { resourceUri: 'ui://files/read' } },
        },
        { name: 'list', inputSchema: { type: 'object' } },
      ],
    };
    expect(zodSays(ToolCatalog, catalog)).toEqual({ ok: true, data: catalog });
    expect(schemaGuard(ToolCatalog)(catalog)).toBe(true);
    expect(schemaGuard(ToolCatalog)({ ...catalog, tools: [{ name: 'bad', inputSchema: { type: 'array' } }] })).toBe(
      false,
    );
  });

  it('builds a guard for a recursive schema without running away, and leaves its records to zod', () => {
    const Node: z.ZodType = z.object({
      name: z.string(),
      get children() {
        return z.array(Node);
      },
    });
    const tree = { name: 'root', children: [{ name: 'leaf', children: [] }] };
    expect(zodSays(Node, tree)).toEqual({ ok: true, data: tree });
    expect(schemaGuard(Node)(tree)).toBe(false);
  });

  it('counts code points where zod does, so an astral character that fits is taken', () => {
    expect(schemaGuard(z.string().min(2))('😀😀')).toBe(true);
    expect(schemaGuard(z.string().max(1))('😀')).toBe(true);
    expect(schemaGuard(z.string().max(1))('ab')).toBe(false);
  });

  it('checks the bounds and literal values it does know', () => {
    const schema = z.object({
      name: z.string().min(2).max(4),
      n: z.number().gt(0).lte(10),
      flag: z.boolean().optional(),
      kind: z.union([z.enum(['a', 'b']), z.literal('c')]),
      tags: z.array(z.string()).min(1),
      note: z.string().nullable(),
    });
    const good = { name: 'abc', n: 10, kind: 'c', tags: ['x'], note: null };
    expect(schemaGuard(schema)(good)).toBe(true);
    for (const bad of [
      { ...good, name: 'a' },
      { ...good, name: 'abcde' },
      { ...good, n: 0 },
      { ...good, n: 10.5 },
      { ...good, n: Infinity },
      { ...good, kind: 'd' },
      { ...good, tags: [] },
      { ...good, flag: 'yes' },
      { ...good, note: undefined },
    ]) {
      expect(schemaGuard(schema)(bad)).toBe(false);
      expect(zodSays(schema, bad).ok).toBe(false);
    }
  });

  it('never says yes where zod refuses or reshapes, over thousands of mutated messages', () => {
    const mutated = mutations(message, 4000, 0x5eed);
    let agreedYes = 0;
    for (const value of mutated) {
      if (!schemaGuard(Message)(value)) continue;
      agreedYes++;
      const zod = zodSays(Message, value);
      expect(zod.ok, JSON.stringify(value)).toBe(true);
      if (zod.ok) expect(zod.data).toStrictEqual(value);
    }
    // Some mutations keep the message valid (another string, another known status): the guard must take those too.
    expect(agreedYes).toBeGreaterThan(200);
  });
});

const REPLACEMENTS: readonly unknown[] = [
  undefined,
  null,
  Number.NaN,
  Infinity,
  -1,
  0,
  -0,
  0.5,
  2 ** 60,
  '',
  'x',
  'text',
  'tool_use',
  'complete',
  'user',
  true,
  false,
  [],
  {},
  [{}],
  { type: 'text', text: 't' },
];

/** `count` copies of `value`, each with one to three random changes: a value replaced, a key deleted, or a key added. */
function mutations(value: unknown, count: number, seed: number): unknown[] {
  let state = seed >>> 0;
  const random = (n: number) => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state % n;
  };
  const out: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const copy = structuredClone(value);
    const changes = 1 + random(3);
    for (let c = 0; c < changes; c++) {
      const containers = containersOf(copy);
      const target = containers[random(containers.length)]!;
      const keys = Object.keys(target);
      const action = random(5);
      if (action === 0 || keys.length === 0)
        (target as Record<string, unknown>)[`extra${random(3)}`] = structuredClone(
          REPLACEMENTS[random(REPLACEMENTS.length)],
        );
      else if (action === 1 && !Array.isArray(target))
        delete (target as Record<string, unknown>)[keys[random(keys.length)]!];
      else
        (target as Record<string, unknown>)[keys[random(keys.length)]!] = structuredClone(
          REPLACEMENTS[random(REPLACEMENTS.length)],
        );
    }
    out.push(copy);
  }
  return out;
}

function containersOf(value: unknown, into: object[] = []): object[] {
  if (typeof value === 'object' && value !== null) {
    into.push(value);
    for (const child of Object.values(value)) containersOf(child, into);
  }
  return into;
}
