import { describe, expect, it } from 'vitest';
import { formatJson } from './json-format';

/** An array nested `depth` deep around "core", built without recursion. */
function nested(depth: number): unknown {
  let value: unknown = 'core';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('formatJson', () => {
  it('equals JSON.stringify(value, null, 2) when within the limits', () => {
    const value = { path: '/tmp/a b', flags: [true, false, null], n: 1.5, nested: { empty: {}, list: [] } };
    expect(formatJson(value, { maxDepth: 10, maxChars: 10_000 })).toEqual({
      text: JSON.stringify(value, null, 2),
      isCut: false,
    });
  });

  it('stops at the depth limit with a count, however deep the value (20,000 arrays: no stack overflow)', () => {
    const { text, isCut } = formatJson(nested(20_000), { maxDepth: 3, maxChars: 10_000 });
    expect(isCut).toBe(true);
    expect(text).toBe('[\n  [\n    [\n      [… 1 item]\n    ]\n  ]\n]');
    expect(formatJson({ a: { b: 1, c: 2 } }, { maxDepth: 1, maxChars: 100 }).text).toBe('{\n  "a": {… 2 keys}\n}');
  });

  it('stops at the character limit, marking the cut', () => {
    const { text, isCut } = formatJson({ message: 'x'.repeat(5_000_000) }, { maxDepth: 10, maxChars: 100 });
    expect(isCut).toBe(true);
    expect(text.length).toBeLessThanOrEqual(101);
    expect(text.endsWith('…')).toBe(true);
    expect(text.startsWith('{\n  "message": "xxx')).toBe(true);
  });

  it('keeps a 3,000-deep value of 6 KB small (JSON.stringify with indent made 36 MB of it)', () => {
    const { text } = formatJson(nested(3000), { maxDepth: 12, maxChars: 20_000 });
    expect(text.length).toBeLessThan(1000);
  });

  it('gives more with larger limits, for Show more', () => {
    const small = formatJson(nested(50), { maxDepth: 12, maxChars: 20_000 });
    const larger = formatJson(nested(50), { maxDepth: 24, maxChars: 40_000 });
    expect(larger.text.length).toBeGreaterThan(small.text.length);
    expect(formatJson(nested(50), { maxDepth: 60, maxChars: 40_000 }).isCut).toBe(false);
  });
});
