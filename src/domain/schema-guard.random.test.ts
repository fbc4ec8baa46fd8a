// The schema guard against zod over random schemas of every kind it knows (schema-guard.ts): it never says yes
// where zod would refuse a value or give back another one.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { schemaGuard } from './schema-guard';

/** What zod gives for `value`, for comparing with the guard's answer. */
function zodSays(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  return result.success ? { ok: true as const, data: result.data } : { ok: false as const };
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
