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

describe('random schemas of the kinds a guard knows, against zod', () => {
  it('never says yes where zod refuses or reshapes, over 1,500 schemas and 150 values each', () => {
    const random = seeded(0xc0ffee);
    const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
    const KEYS = ['a', 'type', 'constructor'];
    const schema = (depth: number): z.ZodType => {
      switch (random(depth > 2 ? 7 : 16)) {
        case 0:
          return pick([
            z.string(),
            z.string().min(1),
            z.string().max(2),
            z.string().min(2),
            z.string().regex(/^[a-x]+$/),
            z.string().regex(/b/g),
            z.string().max(1).regex(/^.$/u),
          ]);
        case 1:
          return pick([
            z.number(),
            z.number().int(),
            z.number().gt(0),
            z.number().lte(0),
            z.number().int().nonnegative(),
          ]);
        case 2:
          return z.boolean();
        case 3:
          return pick([z.literal('a'), z.literal(0), z.literal(true), z.literal(['a', 1])]);
        case 4:
          return z.enum(['a', 'b']);
        case 5:
          return pick([z.unknown(), z.any()]);
        case 6:
          return pick([z.string().default('d'), z.string().prefault('d'), z.string().catch('d')]);
        case 7:
          return schema(depth + 1).optional();
        case 8:
          return schema(depth + 1).nullable();
        case 9:
          return schema(depth + 1).default(pick([0, 'x', null, [], {}]) as never);
        case 10:
          return pick([
            z.array(schema(depth + 1)),
            z
              .array(schema(depth + 1))
              .min(1)
              .max(2),
          ]);
        case 11:
        case 12: {
          const shape: Record<string, z.ZodType> = {};
          for (const key of KEYS) if (random(3) === 0 || key === 'a') shape[key] = schema(depth + 1);
          return random(3) === 0 ? z.looseObject(shape) : z.object(shape);
        }
        case 13:
          return z.union([schema(depth + 1), schema(depth + 1)]);
        case 14:
          return schema(depth + 1).exactOptional();
        default:
          return z.discriminatedUnion('type', [
            z.object({ type: z.literal('x'), a: schema(depth + 1) }),
            z.object({ type: z.enum(['y', 'z']), a: schema(depth + 1).optional() }),
          ]);
      }
    };
    const ATOMS = [
      undefined,
      null,
      0,
      -0,
      1,
      1.5,
      -1,
      Number.NaN,
      Infinity,
      2 ** 53,
      '',
      'a',
      'b',
      'd',
      'x',
      'y',
      '😀',
      '😀😀',
      'ab',
      true,
      false,
    ];
    const value = (depth: number): unknown => {
      const kind = random(depth > 3 ? 1 : 4);
      if (kind <= 1) return pick(ATOMS);
      if (kind === 2) return Array.from({ length: random(3) }, () => value(depth + 1));
      const object: Record<string, unknown> = {};
      for (const key of KEYS)
        if (random(2) === 0) object[key] = key === 'type' ? pick(['x', 'y', 'z', 'w']) : value(depth + 1);
      return object;
    };
    let yes = 0;
    for (let i = 0; i < 1500; i++) {
      const s = schema(0);
      const guard = schemaGuard(s);
      for (let j = 0; j < 150; j++) {
        const v = value(0);
        if (!guard(v)) continue;
        yes++;
        const zod = zodSays(s, v);
        if (!zod.ok || !isDeepStrictEqual(zod.data, v))
          expect.fail(
            `guard said yes to ${JSON.stringify(v)} for ${JSON.stringify(z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }))}; zod: ${JSON.stringify(zod)}`,
          );
      }
    }
    // Enough yeses that the comparison means something.
    expect(yes).toBeGreaterThan(20_000);
  });
});

function seeded(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return (state >>> 8) % n;
  };
}
