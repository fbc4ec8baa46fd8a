import type { z } from 'zod';

/**
 * A fast yes-or-"ask zod" check, built once per schema from the schema itself.
 *
 * Zod compiles object parsers with `new Function` for speed, which the app's Content-Security-Policy
 * (no 'unsafe-eval') forbids, so in the page every record is parsed by zod's slower interpreter: about
 * 2.8 µs per message, most of the app's overhead when a long thread loads. A guard is made of plain
 * closures instead. It answers true only when `schema.safeParse(value)` would succeed and give back a
 * value deep-equal to `value` itself: no key stripped, no default filled, nothing transformed. Anything
 * else, including every schema feature it does not know, answers false, and the caller asks zod, which
 * gives the real result and the real error message. So a guard can only make reading faster, never more
 * lenient; the property test in schema-guard.test.ts holds it to that against zod.
 */
export type SchemaGuard = (value: unknown) => boolean;

const NEVER: SchemaGuard = () => false;
const guards = new WeakMap<z.ZodType, SchemaGuard>();

/** The guard of `schema`, built on first use and kept. */
export function schemaGuard(schema: z.ZodType): SchemaGuard {
  let guard = guards.get(schema);
  if (guard === undefined) {
    guard = build(schema).guard;
    guards.set(schema, guard);
  }
  return guard;
}

/** What zod's `.def` holds for the schema kinds a guard knows; read loosely, since the rest answers false. */
interface Def {
  readonly type: string;
  readonly checks?: readonly { readonly _zod: { readonly def: CheckDef } }[];
  readonly shape?: Record<string, z.ZodType>;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly discriminator?: string;
  readonly inclusive?: boolean;
  readonly values?: readonly unknown[];
  readonly entries?: Record<string, unknown>;
}

interface CheckDef {
  readonly check: string;
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly value?: unknown;
  readonly inclusive?: boolean;
}

interface Built {
  readonly guard: SchemaGuard;
  /** A key with this schema may be absent from its object (zod leaves it absent). */
  readonly optional: boolean;
  /** Values it accepts are strings, numbers or booleans, so no option of a union can reshape them. */
  readonly primitive: boolean;
  /** The literal values this schema accepts, when it is a literal or an enum (for discriminated unions). */
  readonly literals?: readonly unknown[];
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const never: Built = { guard: NEVER, optional: false, primitive: false };

/** Settings a def may carry that change nothing about which values pass as they are. */
const NEUTRAL_KEYS = new Set(['type', 'checks', 'error']);
/** What else each kind's def may hold; any other setting (a string format, coercion, a catchall) is not known, so zod is asked. */
const KNOWN_KEYS: Record<string, readonly string[]> = {
  string: [],
  number: [],
  boolean: [],
  literal: ['values'],
  enum: ['entries'],
  unknown: [],
  any: [],
  optional: ['innerType'],
  nullable: ['innerType'],
  default: ['innerType', 'defaultValue'],
  array: ['element'],
  object: ['shape'],
  union: ['options', 'discriminator', 'inclusive'],
};

function build(schema: z.ZodType): Built {
  const def = defOf(schema);
  const known = KNOWN_KEYS[def.type];
  if (!known || !Object.keys(def).every((key) => NEUTRAL_KEYS.has(key) || known.includes(key))) return never;
  const checks = buildChecks(def);
  if (checks === undefined) return never;
  switch (def.type) {
    case 'string':
      return primitive(checks === NO_CHECKS ? (v) => typeof v === 'string' : (v) => typeof v === 'string' && checks(v));
    case 'number':
      // Finite only: zod refuses NaN and ±Infinity for z.number().
      return primitive(checks === NO_CHECKS ? (v) => Number.isFinite(v) : (v) => Number.isFinite(v) && checks(v));
    case 'boolean':
      return checks === NO_CHECKS ? primitive((v) => typeof v === 'boolean') : never;
    case 'literal':
    case 'enum': {
      // An enum only of names that are their own values (z.enum([...])); a TypeScript enum's reverse-mapped numbers are left to zod.
      const values = def.type === 'literal' ? def.values : def.entries && Object.entries(def.entries).every(([key, value]) => key === value) ? Object.values(def.entries) : undefined;
      if (checks !== NO_CHECKS || !values || !values.every((value) => typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))) return never;
      const set = new Set(values);
      return { ...primitive((v) => set.has(v)), literals: values };
    }
    case 'unknown':
    case 'any':
      // Present and anything: zod gives the very value back. An absent key of z.unknown() is an error in zod 4.
      return checks === NO_CHECKS ? { guard: (v) => v !== undefined, optional: false, primitive: false } : never;
    case 'optional': {
      const inner = def.innerType ? build(def.innerType) : never;
      return checks === NO_CHECKS ? { guard: inner.guard, optional: true, primitive: inner.primitive } : never;
    }
    case 'nullable': {
      const inner = def.innerType ? build(def.innerType) : never;
      return checks === NO_CHECKS ? { guard: (v) => v === null || inner.guard(v), optional: false, primitive: false } : never;
    }
    case 'default': {
      // A stored value is checked as it is; an absent one answers false, so zod fills the default.
      const inner = def.innerType ? build(def.innerType) : never;
      return checks === NO_CHECKS ? { guard: inner.guard, optional: false, primitive: inner.primitive } : never;
    }
    case 'array': {
      if (!def.element) return never;
      const element = build(def.element).guard;
      return {
        guard: (v) => {
          if (!Array.isArray(v) || !checks(v)) return false;
          for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
          // No holes (an element guard refuses undefined), so more keys than elements means a named property zod drops.
          return Object.keys(v).length === v.length;
        },
        optional: false,
        primitive: false,
      };
    }
    case 'object':
      return checks === NO_CHECKS && def.shape ? buildObject(def.shape) : never;
    case 'union':
      // Without a discriminator, `inclusive` is set only by z.xor, which refuses a value two options take.
      if (def.discriminator === undefined && def.inclusive !== undefined) return never;
      return checks === NO_CHECKS && def.options ? buildUnion(def.options, def.discriminator) : never;
    default:
      return never;
  }
}

function primitive(guard: SchemaGuard): Built {
  return { guard, optional: false, primitive: true };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function buildObject(shape: Record<string, z.ZodType>): Built {
  const fields = Object.entries(shape).map(([key, schema]) => ({ key, ...build(schema) }));
  const guard: SchemaGuard = (v) => {
    if (!isPlainObject(v)) return false;
    let present = 0;
    for (const field of fields) {
      const value = v[field.key];
      if (value === undefined) {
        // Absent is fine for an optional key; present-but-undefined is left to zod.
        if (!field.optional || field.key in v) return false;
      } else {
        if (!field.guard(value)) return false;
        present++;
      }
    }
    // A key the schema does not name would be stripped by zod: then the output differs, so ask zod.
    return Object.keys(v).length === present;
  };
  return { guard, optional: false, primitive: false };
}

function buildUnion(options: readonly z.ZodType[], discriminator: string | undefined): Built {
  if (discriminator === undefined) {
    // zod keeps the first option that parses; only options that cannot reshape a value are safe to try in any order.
    const built = options.map(build);
    if (!built.every((option) => option.primitive)) return never;
    return primitive((v) => built.some((option) => option.guard(v)));
  }
  const byValue = new Map<unknown, SchemaGuard>();
  for (const option of options) {
    const shape = defOf(option).shape;
    const tag = shape?.[discriminator];
    const literals = tag ? build(tag).literals : undefined;
    if (!literals) return never;
    const guard = build(option).guard;
    for (const value of literals) {
      if (byValue.has(value)) return never;
      byValue.set(value, guard);
    }
  }
  return {
    guard: (v) => {
      if (!isPlainObject(v)) return false;
      const guard = byValue.get(v[discriminator]);
      return guard !== undefined && guard(v);
    },
    optional: false,
    primitive: false,
  };
}

type Checks = (v: unknown) => boolean;
const NO_CHECKS: Checks = () => true;

/** The checks of a string, number or array as one predicate; undefined when one of them is not known. */
function buildChecks(def: Def): Checks | undefined {
  if (!def.checks || def.checks.length === 0) return NO_CHECKS;
  const parts: ((v: unknown) => boolean)[] = [];
  for (const check of def.checks) {
    const c = check._zod.def;
    if (c.check === 'min_length' && typeof c.minimum === 'number') {
      const min = c.minimum;
      parts.push((v) => (v as { length: number }).length >= min);
    } else if (c.check === 'max_length' && typeof c.maximum === 'number') {
      const max = c.maximum;
      parts.push((v) => (v as { length: number }).length <= max);
    } else if (c.check === 'number_format' && c.format === 'safeint') {
      parts.push((v) => Number.isSafeInteger(v));
    } else if (c.check === 'greater_than' && typeof c.value === 'number') {
      const bound = c.value;
      parts.push(c.inclusive ? (v) => (v as number) >= bound : (v) => (v as number) > bound);
    } else if (c.check === 'less_than' && typeof c.value === 'number') {
      const bound = c.value;
      parts.push(c.inclusive ? (v) => (v as number) <= bound : (v) => (v as number) < bound);
    } else {
      return undefined;
    }
  }
  if (parts.length === 1) return parts[0];
  return (v) => {
    for (const part of parts) if (!part(v)) return false;
    return true;
  };
}
