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
