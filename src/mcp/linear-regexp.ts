import { RE2JS } from 're2js';

/** Thrown when a schema's pattern needs backtracking (backreferences, lookaround), which RE2 cannot run. */
export class UncheckablePatternError extends Error {
  override readonly name = 'UncheckablePatternError';
  constructor(readonly pattern: string) {
    super(`The pattern "${pattern}" cannot be checked in linear time.`);
  }
}

const NativeRegExp = globalThis.RegExp;

/**
 * What @cfworker/json-schema asks of a RegExp (`new RegExp(p, 'u').test(s)` for `pattern` and
 * `patternProperties`), matched by RE2: linear in the input, so no server's pattern can freeze the page.
 */
class LinearRegExp {
  private readonly re2?: RE2JS;

  constructor(
    readonly source: string,
    flags?: string,
  ) {
    try {
      this.re2 = RE2JS.compile(toRe2Syntax(source));
    } catch {
      new NativeRegExp(source, flags); // Not even a JavaScript regex: throws the SyntaxError cfworker expects.
    }
  }

  test(input: string): boolean {
    if (!this.re2) throw new UncheckablePatternError(this.source);
    return this.re2.test(input);
  }
}

/** JavaScript's `\uXXXX` and `\u{X…}` escapes in RE2's spelling, `\x{X…}`; everything else is the same. */
export function toRe2Syntax(pattern: string): string {
  return pattern.replace(
    /\\(?:u([0-9a-fA-F]{4})|u\{([0-9a-fA-F]{1,6})\}|[\s\S])/g,
    (escape, four?: string, braced?: string) =>
      four !== undefined || braced !== undefined ? `\\x{${four ?? braced}}` : escape,
  );
}

/**
 * Runs `validate` (synchronous) with `new RegExp` meaning RE2. Regex literals keep the native engine; the swap
 * lasts only this call, and nothing else can run in between since the call never yields.
 */
export function withLinearRegExp<T>(validate: () => T): T {
  globalThis.RegExp = LinearRegExp as unknown as RegExpConstructor;
  try {
    return validate();
  } finally {
    globalThis.RegExp = NativeRegExp;
  }
}

/** The first pattern in a schema that RE2 cannot run, if any (JavaScript syntax errors are not reported here). */
export function uncheckablePattern(schema: unknown): string | undefined {
  for (const pattern of patternsOf(schema)) {
    try {
      RE2JS.compile(toRe2Syntax(pattern));
    } catch {
      return pattern;
    }
  }
  return undefined;
}

/** Every `pattern` and `patternProperties` key in a schema, to a bounded depth. */
export function patternsOf(node: unknown, depth = 0): string[] {
  if (depth > 64 || typeof node !== 'object' || node === null) return [];
  if (Array.isArray(node)) return node.flatMap((child) => patternsOf(child, depth + 1));
  const record = node as Record<string, unknown>;
  const own = typeof record.pattern === 'string' ? [record.pattern] : [];
  const keys =
    typeof record.patternProperties === 'object' && record.patternProperties !== null
      ? Object.keys(record.patternProperties)
      : [];
  return [...own, ...keys, ...Object.values(record).flatMap((value) => patternsOf(value, depth + 1))];
}
