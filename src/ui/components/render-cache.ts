/**
 * What a row's rendering costs to make again (parsed markdown, coloured code), kept for the texts shown last: a row
 * that scrolls back into view, or a thread opened again, takes it from here instead of parsing once more.
 */
export interface RenderCache<V> {
  /** The value kept for `key`, which becomes the most recently used; undefined when none is kept. */
  get(key: string): V | undefined;
  /** Keeps `value` for `key`; past `maxEntries`, the least recently used goes. */
  set(key: string, value: V): void;
  readonly size: number;
}

/** A least-recently-used cache of at most `maxEntries` values (a Map keeps insertion order: the first is the oldest). */
export function createRenderCache<V>(maxEntries: number): RenderCache<V> {
  const entries = new Map<string, V>();
  return {
    get(key) {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    get size() {
      return entries.size;
    },
  };
}
