import { describe, expect, it } from 'vitest';
import { createRenderCache } from './render-cache';

describe('createRenderCache', () => {
  it('gives back what was kept, and nothing for a key never kept', () => {
    const cache = createRenderCache<number>(3);
    cache.set('a', 1);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('b')).toBeUndefined();
  });

  it('drops the least recently used entry past its size, counting a read as a use', () => {
    const cache = createRenderCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a'); // "b" is now the oldest.
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('replaces the value of a key kept again, without growing', () => {
    const cache = createRenderCache<string>(2);
    cache.set('a', 'old');
    cache.set('a', 'new');
    expect(cache.get('a')).toBe('new');
    expect(cache.size).toBe(1);
  });
});

describe('createRenderCache by the length of its texts', () => {
  it('keeps at most maxChars characters of text, dropping the oldest, and never one text longer than that', () => {
    const cache = createRenderCache<number>(100, 10);
    cache.set('aaaa', 1);
    cache.set('bbbb', 2);
    cache.set('cccc', 3); // 12 characters: "aaaa" goes.
    expect(cache.get('aaaa')).toBeUndefined();
    expect(cache.get('bbbb')).toBe(2);
    expect(cache.get('cccc')).toBe(3);
    cache.set('x'.repeat(11), 4);
    expect(cache.get('x'.repeat(11))).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});
