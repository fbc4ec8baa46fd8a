import { describe, expect, it } from 'vitest';
import { compileInputSchema, MAX_PROBLEMS_NAMED, PermissiveCfWorkerValidator } from './schema-validation';

/** The pattern of issue #15: exponential backtracking on a word run that ends in a character it refuses. */
const CATASTROPHIC = '^(\\w+\\s?)*$';
const HOSTILE_ARGUMENT = `${'a'.repeat(90)}!`;
/** Far above what a linear-time check needs, far below the minutes backtracking takes. */
const BUDGET_MS = 2_000;

const schemaWith = (pattern: string) => ({
  type: 'object',
  properties: { query: { type: 'string', pattern } },
});

function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

describe('input schema checks', () => {
  it('answers a catastrophic pattern within the budget: the argument is refused as not matching', () => {
    const check = compileInputSchema('search', schemaWith(CATASTROPHIC));
    expect(check.warning).toBeUndefined();
    const { value, ms } = timed(() => check.check({ query: HOSTILE_ARGUMENT }));
    expect(ms).toBeLessThan(BUDGET_MS);
    expect(value).toContain('query: String does not match pattern.');
    expect(check.check({ query: 'two words' })).toBeUndefined();
  });

  it('answers a catastrophic patternProperties key within the budget', () => {
    const check = compileInputSchema('search', {
      type: 'object',
      patternProperties: { [CATASTROPHIC]: { type: 'number' } },
    });
    const { value, ms } = timed(() => check.check({ [HOSTILE_ARGUMENT]: 'not checked as a number', ok: 'x' }));
    expect(ms).toBeLessThan(BUDGET_MS);
    // "ok" matches the pattern, so it must be a number; the hostile key does not match, so it is free.
    expect(value).toContain('ok: wrong type: expected number, got string');
    expect(value).not.toContain(HOSTILE_ARGUMENT);
  });

  it('sends arguments unchecked, with a warning saying why, when a pattern needs backtracking', () => {
    const check = compileInputSchema('search', schemaWith('^(a+)\\1$'));
    expect(check.warning).toBe(
      'The input schema of "search" uses a pattern that cannot be checked in linear time (backreferences or lookaround: "^(a+)\\1$"); its arguments are sent unchecked.',
    );
    expect(check.check({ query: 'whatever' })).toBeUndefined();
  });

  it("reads JavaScript's \\u escapes as RE2 spells them", () => {
    const check = compileInputSchema('search', schemaWith('^[\\u0041-\\u005A]+\\u{21}\\\\u0041$'));
    expect(check.warning).toBeUndefined();
    expect(check.check({ query: 'ABC!\\u0041' })).toBeUndefined();
    expect(check.check({ query: 'abc!\\u0041' })).toContain('String does not match pattern.');
  });

  it('says what is wrong where, once: no parent "does not match schema" before its child\'s reason', () => {
    const check = compileInputSchema('get-sum', {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    expect(check.check({ a: 'two', b: 3 })).toBe('a: wrong type: expected number, got string.');
  });

  it('names every problem a model can act on: a missing required property, one not allowed, a wrong type', () => {
    const check = compileInputSchema('echo', {
      type: 'object',
      properties: {
        message: { type: 'string' },
        options: { type: 'object', properties: { loud: { type: 'boolean' } } },
      },
      required: ['message'],
      additionalProperties: false,
    });
    expect(check.check({ text: 'hi' })).toBe('Missing required property "message". Property "text" is not allowed.');
    expect(check.check({ message: 'hi', options: { loud: 'yes' } })).toBe(
      'options.loud: wrong type: expected boolean, got string.',
    );
  });

  it('names at most MAX_PROBLEMS_NAMED problems and counts the rest', () => {
    const check = compileInputSchema('wide', { type: 'object', additionalProperties: false });
    const args = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, i]));
    const message = check.check(args)!;
    expect(message.match(/is not allowed/g)).toHaveLength(MAX_PROBLEMS_NAMED);
    expect(message).toMatch(/Property "p0" is not allowed\..*\(22 more problems not named\.\)$/);
  });

  it('takes a schema that is not valid JSON Schema as one that cannot be compiled: unchecked, with a warning', () => {
    const cases: [unknown, string][] = [
      [
        { type: 'object', properties: { a: { type: 'strng' } } },
        'properties.a.type: "strng" is not a JSON Schema type',
      ],
      [{ type: 'object', required: 'a' }, 'required: must be a list of property names'],
      [{ type: 'object', properties: { a: { anyOf: [] } } }, 'properties.a.anyOf: must be a non-empty list of schemas'],
      [
        { type: 'object', properties: { a: { items: 5 } } },
        'properties.a.items: a schema must be an object or a boolean',
      ],
    ];
    for (const [schema, problem] of cases) {
      const check = compileInputSchema('echo', schema);
      expect(check.warning).toBe(
        `The input schema of "echo" cannot be compiled (${problem}); its arguments are sent unchecked.`,
      );
      expect(check.check({ a: 1 })).toBeUndefined();
    }
    const output = new PermissiveCfWorkerValidator().getValidator({
      type: 'object',
      properties: { n: { type: 'nmber' } },
    });
    expect(output({ n: 1 }).valid).toBe(true);
  });

  it('still refuses a pattern that is not a regular expression at all', () => {
    expect(compileInputSchema('search', schemaWith('(')).warning).toMatch(/cannot be compiled/);
  });

  it('checks output schemas with the same linear-time patterns', () => {
    const validate = new PermissiveCfWorkerValidator().getValidator<unknown>({
      type: 'object',
      properties: { answer: { type: 'string', pattern: CATASTROPHIC } },
    });
    const { value, ms } = timed(() => validate({ answer: HOSTILE_ARGUMENT }));
    expect(ms).toBeLessThan(BUDGET_MS);
    expect(value.valid).toBe(false);
  });

  it('leaves the global RegExp as it was', () => {
    compileInputSchema('search', schemaWith(CATASTROPHIC)).check({ query: 'x' });
    expect(new RegExp('a(?=b)').test('ab')).toBe(true);
    expect(/x/ instanceof RegExp).toBe(true);
  });
});
