import type { Registry } from '../mcp/registry';
import { HELD_REFRESH_MS, type FloodGuard } from './flood-guard';

/** The registry with its tool calls counted per server while they run (a server may ask the person only then). */
export interface TrackedCalls {
  readonly registry: Registry;
  readonly isCalling: (serverId: string) => boolean;
}

type CallOptions = NonNullable<Parameters<Registry['callTool']>[3]>;
type OnProgress = NonNullable<CallOptions['onProgress']>;

/**
 * Wraps `callTool` to count calls in flight by server, and (with a guard) to hold back the progress of a server that
 * floods: its latest progress then shows at most once a second. Everything else is the registry's own.
 */
export function trackServerCalls(registry: Registry, guard?: FloodGuard): TrackedCalls {
  const running = new Map<string, number>();
  const change = (serverId: string, by: number) => {
    const count = (running.get(serverId) ?? 0) + by;
    if (count > 0) running.set(serverId, count);
    else running.delete(serverId);
  };
  const callTool: Registry['callTool'] = async (serverId, toolName, args, options) => {
    change(serverId, 1);
    const held = guard && options?.onProgress ? holdingProgress(serverId, guard, options.onProgress) : undefined;
    try {
      return await registry.callTool(
        serverId,
        toolName,
        args,
        held ? { ...options, onProgress: held.onProgress } : options,
      );
    } finally {
      held?.stop();
      change(serverId, -1);
    }
  };
  const tracked = new Proxy(registry, {
    get(target, property, receiver) {
      if (property === 'callTool') return callTool;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { registry: tracked, isCalling: (serverId) => running.has(serverId) };
}

/** Passes progress on while the guard admits it; while held back, only the latest, once a second. */
function holdingProgress(serverId: string, guard: FloodGuard, onProgress: OnProgress) {
  let latest: Parameters<OnProgress>[0] | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    onProgress: (progress: Parameters<OnProgress>[0]) => {
      if (guard.admit(serverId)) {
        // A held value still waiting is older than this one: it must not come after it.
        clearTimeout(timer);
        timer = latest = undefined;
        return onProgress(progress);
      }
      latest = progress;
      timer ??= setTimeout(() => {
        timer = undefined;
        if (latest) onProgress(latest);
        latest = undefined;
      }, HELD_REFRESH_MS);
    },
    stop: () => clearTimeout(timer),
  };
}
