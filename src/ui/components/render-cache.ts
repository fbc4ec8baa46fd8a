/**
 * What a row's rendering costs to make again (parsed markdown, coloured code), kept for the texts shown last: a row
 * that scrolls back into view, or a thread opened again, takes it from here instead of parsing once more.
 */
/** Characters of text whose renderings a cache keeps at most (about a hundred long answers). */
export const MAX_CACHED_CHARS = 2_000_000;

export interface RenderCache<V> {
  /** The value kept for `key`, which becomes the most recently used; undefined when none is kept. */
  get(key: string): V | undefined;
  /** Keeps `value` for `key`; past `maxEntries`, the least recently used goes. */
  set(key: string, value: V): void;
  readonly size: number;
}

/**
 * A least-recently-used cache of at most `maxEntries` values whose keys (the texts rendered) hold at most `maxChars`
 * characters in all, so that a few very long texts cannot keep tens of megabytes of elements (a Map keeps insertion
 * order: the first is the oldest).
 */
export function createRenderCache<V>(maxEntries: number, maxChars = MAX_CACHED_CHARS): RenderCache<V> {
  const entries = new Map<string, V>();
  let chars = 0;
  const drop = (key: string) => {
    if (entries.delete(key)) chars -= key.length;
  };
  return {
    get(key) {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key, value) {
      drop(key);
      if (key.length > maxChars) return;
      entries.set(key, value);
      chars += key.length;
      while (entries.size > maxEntries || chars > maxChars) drop(entries.keys().next().value!);
    },
    get size() {
      return entries.size;
    },
  };
}
