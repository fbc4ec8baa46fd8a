import { describe, expect, it } from 'vitest';
import { ThreadToolSearchOverrides } from '../domain/tool-search-settings';
import { limitValue, MAX_PRELOAD, parseThreadPreload } from './limit-input';

describe("a thread's preload count as typed", () => {
  it('is blank (follow Settings) or a whole number in range; anything else says what to type', () => {
    const wrong = { error: 'Enter a whole number of tools from 0 to 20, or leave it empty to follow Settings.' };
    expect(parseThreadPreload('  ')).toEqual({ value: undefined });
    expect(parseThreadPreload(' 0 ')).toEqual({ value: 0 });
    expect(parseThreadPreload('20')).toEqual({ value: 20 });
    for (const text of ['21', '999', '-1', '2.5', 'three', '0x10', '1e1'])
      expect(parseThreadPreload(text)).toEqual(wrong);
  });

  it('takes exactly what the stored thread settings take', () => {
    expect(ThreadToolSearchOverrides.safeParse({ preloadCount: MAX_PRELOAD }).success).toBe(true);
    expect(ThreadToolSearchOverrides.safeParse({ preloadCount: MAX_PRELOAD + 1 }).success).toBe(false);
  });
});

describe('a limit as typed in Settings', () => {
  it('reads digits as a person means them, commas between thousands too, and nothing else as a number', () => {
    expect(limitValue('1,000,000')).toBe(1_000_000);
    expect(limitValue(' $0.05 ')).toBe(0.05);
    expect(limitValue('250')).toBe(250);
    expect(limitValue('-1')).toBe(-1); // Refused by the schema: "must be at least 1 (0 means no limit)".
    expect(limitValue('0')).toBeNull();
    expect(limitValue('')).toBeUndefined();
    for (const text of ['0x10', '1e3', '1,00', 'ten', '5 calls', 'Infinity']) expect(limitValue(text)).toBeNaN();
  });
});
