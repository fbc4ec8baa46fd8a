import { describe, expect, it } from 'vitest';
import { ThreadToolSearchOverrides } from '../domain/tool-search-settings';
import { MAX_PRELOAD, parseThreadPreload } from './limit-input';

describe("a thread's preload count as typed", () => {
  it('is blank (follow Settings) or a whole number in range; anything else says what to type', () => {
    const wrong = { error: 'Enter a whole number of tools from 0 to 20, or leave it empty to follow Settings.' };
    expect(parseThreadPreload('  ')).toEqual({ value: undefined });
    expect(parseThreadPreload(' 0 ')).toEqual({ value: 0 });
    expect(parseThreadPreload('20')).toEqual({ value: 20 });
    for (const text of ['21', '999', '-1', '2.5', 'three']) expect(parseThreadPreload(text)).toEqual(wrong);
  });

  it('takes exactly what the stored thread settings take', () => {
    expect(ThreadToolSearchOverrides.safeParse({ preloadCount: MAX_PRELOAD }).success).toBe(true);
    expect(ThreadToolSearchOverrides.safeParse({ preloadCount: MAX_PRELOAD + 1 }).success).toBe(false);
  });
});
