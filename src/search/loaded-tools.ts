import type { LoadedTool } from '../domain/thread-config';
import type { ToolRef } from '../domain/tool-catalog';

/** A stable key for a tool reference (server ids cannot contain NUL). */
export const refKey = (ref: ToolRef): string => `${ref.serverId}\u0000${ref.toolName}`;

/**
 * The most recently used `cap` tools, in the order they were loaded (ties: the earlier loaded stay). The order is the
 * order of the request's tool list, so it never changes while the set does not: the prompt cache stays valid.
 */
export function capLoadedTools(loaded: readonly LoadedTool[], cap: number): LoadedTool[] {
  const limit = Math.max(0, Math.floor(cap));
  if (loaded.length <= limit) return [...loaded];
  const kept = new Set(
    loaded
      .map((tool, index) => ({ tool, index }))
      .sort((a, b) => b.tool.lastUsedAt - a.tool.lastUsedAt || a.index - b.index)
      .slice(0, limit)
      .map((entry) => entry.index),
  );
  return loaded.filter((_, index) => kept.has(index));
}

/**
 * The thread's loaded tools after `refs` were found by tool_search, offered or used at `now`: each gets
 * lastUsedAt = now where it stands, new ones are appended at the end (append-only, for the prompt cache), and the least
 * recently used past `cap` are dropped. `refs` come best first, so when they alone exceed the cap, the best stay.
 */
export function touchLoadedTools(
  loaded: readonly LoadedTool[],
  refs: readonly ToolRef[],
  now: number,
  cap: number,
): LoadedTool[] {
  const touched = new Set(refs.map(refKey));
  const present = new Set(loaded.map(refKey));
  const kept = loaded.map((tool) => (touched.has(refKey(tool)) ? { ...tool, lastUsedAt: now } : tool));
  const added: LoadedTool[] = [];
  for (const ref of refs) {
    const key = refKey(ref);
    if (present.has(key)) continue;
    present.add(key);
    added.push({ serverId: ref.serverId, toolName: ref.toolName, lastUsedAt: now });
  }
  // New tools win ties with old ones touched now only when there is room; among the new, the best come first.
  const limit = Math.max(0, Math.floor(cap));
  if (added.length >= limit) return added.slice(0, limit);
  return capLoadedTools([...kept, ...added], cap);
}
