// The checks zod keeps on a string, number or array schema (lengths, bounds, safe integers, a regular expression),
// read by schema-guard.ts.

/** What zod's `.def` holds for a check a guard knows; read loosely, since the rest is not known. */
export interface CheckDef {
  readonly check: string;
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly value?: unknown;
  readonly inclusive?: boolean;
  readonly pattern?: unknown;
}

/** A schema's checks as one predicate over a value its type already passed. */
export type Checks = (v: unknown) => boolean;
/** The predicate of a schema without checks. */
export const NO_CHECKS: Checks = () => true;

/** Settings a check may carry besides its kind's own, none of which changes which values pass. */
const NEUTRAL_CHECK_KEYS = new Set(['check', 'type', 'abort', 'when', 'error']);
const CHECK_KEYS: Record<string, readonly string[]> = {
  min_length: ['minimum'],
  max_length: ['maximum'],
  number_format: ['format'],
  greater_than: ['value', 'inclusive'],
  less_than: ['value', 'inclusive'],
  string_format: ['format', 'pattern'],
};

/** Zod counts a string's length in code points (a pair of surrogates is one). */
function codePoints(s: string): number {
  let count = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    if ((s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

/** The checks of a string, number or array as one predicate; undefined when one of them is not known. */
export function buildChecks(
  checks: readonly { readonly _zod: { readonly def: CheckDef } }[] | undefined,
): Checks | undefined {
  if (!checks || checks.length === 0) return NO_CHECKS;
  const parts: Checks[] = [];
  for (const check of checks) {
    const c = check._zod.def;
    const own = CHECK_KEYS[c.check];
    if (!own || !Object.keys(c).every((key) => NEUTRAL_CHECK_KEYS.has(key) || own.includes(key))) return undefined;
    if (c.check === 'min_length' && typeof c.minimum === 'number') {
      const min = c.minimum;
      // UTF-16 units are at least the code points, so only a string that passes by units needs counting.
      parts.push((v) => {
        const units = (v as { length: number }).length;
        return units >= min && (typeof v !== 'string' || units >= min * 2 || codePoints(v) >= min);
      });
    } else if (c.check === 'max_length' && typeof c.maximum === 'number') {
      const max = c.maximum;
      parts.push((v) => {
        const units = (v as { length: number }).length;
        return units <= max || (typeof v === 'string' && codePoints(v) <= max);
      });
    } else if (c.check === 'number_format' && c.format === 'safeint') {
      parts.push((v) => Number.isSafeInteger(v));
    } else if (c.check === 'string_format' && c.format === 'regex' && c.pattern instanceof RegExp) {
      // As zod tests it: from the start, whatever a global or sticky pattern's last test left in lastIndex.
      const pattern = c.pattern;
      parts.push((v) => {
        pattern.lastIndex = 0;
        return typeof v === 'string' && pattern.test(v);
      });
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
