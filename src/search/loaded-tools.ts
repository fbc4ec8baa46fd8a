import type { LoadedTool } from '../domain/thread-config';
import type { ToolRef } from '../domain/tool-catalog';

/** A stable key for a tool reference (server ids cannot contain NUL). */
export const refKey = (ref: ToolRef): string => `${ref.serverId}\u0000${ref.toolName}`;

/** The most recently used `cap` tools, most recent first (ties keep their order). */
export function capLoadedTools(loaded: readonly LoadedTool[], cap: number): LoadedTool[] {
  const limit = Math.max(0, Math.floor(cap));
  return [...loaded].sort((a, b) => b.lastUsedAt - a.lastUsedAt).slice(0, limit);
}

/**
 * The thread's loaded tools after `refs` were found by tool_search or used at `now`: each gets lastUsedAt = now
 * (added when new), and the least recently used past `cap` are dropped. `refs` come best first, so when they alone
 * exceed the cap, the best of them stay.
 */
export function touchLoadedTools(
  loaded: readonly LoadedTool[],
  refs: readonly ToolRef[],
  now: number,
  cap: number,
): LoadedTool[] {
  const byKey = new Map<string, LoadedTool>();
  const touched: LoadedTool[] = [];
  for (const ref of refs) {
    const key = refKey(ref);
    if (byKey.has(key)) continue;
    const entry: LoadedTool = { serverId: ref.serverId, toolName: ref.toolName, lastUsedAt: now };
    byKey.set(key, entry);
    touched.push(entry);
  }
  const rest = loaded.filter((tool) => !byKey.has(refKey(tool)));
  return capLoadedTools([...touched, ...rest], cap);
}
