import type { z } from 'zod';
import { buildChecks, NO_CHECKS, type CheckDef } from './schema-guard-checks';

/**
 * A fast yes-or-"ask zod" check, built once per schema from the schema itself.
 *
 * Zod compiles object parsers with `new Function` for speed, which the app's Content-Security-Policy
 * (no 'unsafe-eval') forbids, so in the page every record is parsed by zod's slower interpreter: about
 * 1.5 µs per message, most of the app's overhead when a long thread loads. A guard is made of plain
 * closures instead. It answers true only when `schema.safeParse(value)` would succeed and give back a
 * value deep-equal to `value` itself: no key stripped, no default filled, nothing transformed (zod's
 * copy may list keys in the schema's order; a guarded value keeps its own). Anything else, including
 * every schema feature it does not know, answers false, and the caller asks zod, which gives the real
 * result and the real error message. So a guard can only make reading faster, never more lenient.
 *
 * It reads zod's schema definitions (`_zod.def`), which are zod's internals: the package is pinned to
 * one version, and schema-guard.test.ts holds the guard to zod's answers over random schemas and values,
 * so an upgrade that changes a meaning fails there.
 */
export type SchemaGuard = (value: unknown) => boolean;

const NEVER: SchemaGuard = () => false;
const guards = new WeakMap<z.ZodType, SchemaGuard>();

/** The guard of `schema`, built on first use and kept. */
export function schemaGuard(schema: z.ZodType): SchemaGuard {
  let guard = guards.get(schema);
  if (guard === undefined) {
    guard = build(schema, new Set()).guard;
    guards.set(schema, guard);
  }
  return guard;
}

/** What zod's `.def` holds for the schema kinds a guard knows; read loosely, since the rest answers false. */
interface Def {
  readonly type: string;
  readonly checks?: readonly { readonly _zod: { readonly def: CheckDef } }[];
  readonly shape?: Record<string, z.ZodType>;
  readonly catchall?: z.ZodType;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly discriminator?: string;
  readonly inclusive?: boolean;
  readonly values?: readonly unknown[];
  readonly entries?: Record<string, unknown>;
}

interface Built {
  readonly guard: SchemaGuard;
  /** The guard can say yes to something (false for a schema it does not know). */
  readonly known: boolean;
  /** A key with this schema may be absent from its object (zod leaves it absent). */
  readonly optional: boolean;
  /** Zod may put a value where there was none (a default, also under .optional() or .nullable()). */
  readonly fills: boolean;
  /** Values it accepts are strings, numbers or booleans, so no option of a union can reshape them. */
  readonly primitive: boolean;
  /** The literal values this schema accepts, when it is a literal or an enum (for discriminated unions). */
  readonly literals?: readonly unknown[];
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
/** How zod treats an absent key of this schema: 'optional' leaves it absent, 'defaulted' fills it. */
const optinOf = (schema: z.ZodType): unknown => (schema as unknown as { _zod: { optin?: unknown } })._zod.optin;

const never: Built = { guard: NEVER, known: false, optional: false, fills: false, primitive: false };
const plain = (guard: SchemaGuard, extra: Partial<Built> = {}): Built => ({
  guard,
  known: true,
  optional: false,
  fills: false,
  primitive: false,
  ...extra,
});

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
  object: ['shape', 'catchall'],
  union: ['options', 'discriminator', 'inclusive'],
};

/** `building` holds the schemas on the way down: a recursive schema (a getter in a shape) comes round again and is not known. */
function build(schema: z.ZodType, building: Set<z.ZodType>): Built {
  if (building.has(schema)) return never;
  building.add(schema);
  try {
    return buildKnown(schema, defOf(schema), building);
  } finally {
    building.delete(schema);
  }
}

function buildKnown(schema: z.ZodType, def: Def, building: Set<z.ZodType>): Built {
  const known = KNOWN_KEYS[def.type];
  if (!known || !Object.keys(def).every((key) => NEUTRAL_KEYS.has(key) || known.includes(key))) return never;
  const checks = buildChecks(def.checks);
  if (checks === undefined) return never;
  if (checks !== NO_CHECKS && def.type !== 'string' && def.type !== 'number' && def.type !== 'array') return never;
  switch (def.type) {
    case 'string':
      return plain(checks === NO_CHECKS ? (v) => typeof v === 'string' : (v) => typeof v === 'string' && checks(v), {
        primitive: true,
      });
    case 'number':
      // Finite only: zod refuses NaN and ±Infinity for z.number().
      return plain(checks === NO_CHECKS ? (v) => Number.isFinite(v) : (v) => Number.isFinite(v) && checks(v), {
        primitive: true,
      });
    case 'boolean':
      return plain((v) => typeof v === 'boolean', { primitive: true });
    case 'literal':
    case 'enum': {
      // An enum only of names that are their own values (z.enum([...])); a TypeScript enum's reverse-mapped numbers are left to zod.
      const values =
        def.type === 'literal'
          ? def.values
          : def.entries && Object.entries(def.entries).every(([key, value]) => key === value)
            ? Object.values(def.entries)
            : undefined;
      if (
        !values ||
        !values.every(
          (value) =>
            typeof value === 'string' ||
            typeof value === 'boolean' ||
            (typeof value === 'number' && Number.isFinite(value)),
        )
      )
        return never;
      const set = new Set(values);
      return plain((v) => set.has(v), { primitive: true, literals: values });
    }
    case 'unknown':
    case 'any':
      // Present and anything: zod gives the very value back. An absent key of z.unknown() is an error in zod 4.
      return plain((v) => v !== undefined);
    case 'optional': {
      // An absent key stays absent only when nothing inside fills it (`.default(x).optional()` writes x).
      const inner = def.innerType ? build(def.innerType, building) : never;
      if (!inner.known || inner.fills || optinOf(schema) !== 'optional') return never;
      return { ...inner, optional: true, literals: undefined };
    }
    case 'nullable': {
      const inner = def.innerType ? build(def.innerType, building) : never;
      if (!inner.known) return never;
      return plain((v) => v === null || inner.guard(v), { fills: inner.fills });
    }
    case 'default': {
      // A stored value is checked as it is; an absent one answers false, so zod fills the default.
      const inner = def.innerType ? build(def.innerType, building) : never;
      if (!inner.known) return never;
      return plain(inner.guard, { fills: true, primitive: inner.primitive });
    }
    case 'array': {
      const element = def.element ? build(def.element, building) : never;
      if (!element.known) return never;
      const guard = element.guard;
      return plain((v) => {
        if (!Array.isArray(v) || Object.getPrototypeOf(v) !== Array.prototype || !checks(v)) return false;
        for (let i = 0; i < v.length; i++) if (!guard(v[i])) return false;
        // No holes (an element guard refuses undefined), so more keys than elements means a named property zod drops.
        return Object.keys(v).length === v.length;
      });
    }
    case 'object': {
      if (!def.shape) return never;
      if (def.catchall === undefined) return buildObject(def.shape, building, false);
      // A loose object (catchall z.unknown()) gives back the keys it does not name as they are; other catchalls
      // (a strict object's z.never(), a typed catchall) are not known.
      const catchall = defOf(def.catchall);
      const isLoose = catchall.type === 'unknown' && Object.keys(catchall).every((key) => NEUTRAL_KEYS.has(key));
      return isLoose ? buildObject(def.shape, building, true) : never;
    }
    case 'union':
      // Without a discriminator, `inclusive` is set only by z.xor, which refuses a value two options take.
      if (def.discriminator === undefined && def.inclusive !== undefined) return never;
      return def.options ? buildUnion(def.options, def.discriminator, building) : never;
    default:
      return never;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

function buildObject(shape: Record<string, z.ZodType>, building: Set<z.ZodType>, keepsOthers: boolean): Built {
  // Zod skips a key named __proto__ and checks Symbol keys; neither is worth knowing here.
  if (Object.getOwnPropertySymbols(shape).length > 0 || Object.hasOwn(shape, '__proto__')) return never;
  const fields = Object.entries(shape).map(([key, schema]) => ({
    key,
    inherited: key in Object.prototype,
    ...build(schema, building),
  }));
  // A required key of a kind the guard does not know: no record can pass, so say no without looking.
  if (fields.some((field) => !field.known && !field.optional)) return never;
  const guard: SchemaGuard = (v) => {
    if (!isPlainObject(v)) return false;
    let present = 0;
    for (const field of fields) {
      // A key like `constructor` reads Object.prototype's when the record lacks it; zod would see that value too.
      if (field.inherited && !Object.hasOwn(v, field.key)) return false;
      const value = v[field.key];
      if (value === undefined) {
        // Absent is fine for an optional key; present-but-undefined is left to zod.
        if (!field.optional || field.key in v) return false;
      } else {
        if (!field.guard(value)) return false;
        present++;
      }
    }
    // A loose object keeps the keys it does not name, but for an own `__proto__` (zod leaves it out of its copy).
    if (keepsOthers) return !Object.hasOwn(v, '__proto__');
    // A key the schema does not name would be stripped by zod: then the output differs, so ask zod.
    // (Records are structured clones: own enumerable string keys only, so Object.keys sees them all.)
    return Object.keys(v).length === present;
  };
  return plain(guard);
}

function buildUnion(options: readonly z.ZodType[], discriminator: string | undefined, building: Set<z.ZodType>): Built {
  const built = options.map((option) => build(option, building));
  const fills = built.some((option) => option.fills);
  if (discriminator === undefined) {
    // zod keeps the first option that parses; only options that cannot reshape a value are safe to try in any order.
    if (!built.every((option) => option.primitive)) return never;
    return plain((v) => built.some((option) => option.guard(v)), { primitive: true, fills });
  }
  const byValue = new Map<unknown, SchemaGuard>();
  for (const [i, option] of options.entries()) {
    const shape = defOf(option).shape;
    const tag = shape && Object.hasOwn(shape, discriminator) ? shape[discriminator] : undefined;
    const literals = tag ? build(tag, building).literals : undefined;
    if (!literals) return never;
    for (const value of literals) {
      if (byValue.has(value)) return never;
      byValue.set(value, built[i]!.guard);
    }
  }
  return plain(
    (v) => {
      if (!isPlainObject(v)) return false;
      const guard = byValue.get(v[discriminator]);
      return guard !== undefined && guard(v);
    },
    { fills },
  );
}
