import type { Registry } from '../mcp/registry';
import type { CallFrom } from '../mcp/server-connection-deps';
import { HELD_REFRESH_MS, type FloodGuard } from './flood-guard';

/** A server's tool call running now: the thread it is made in, by its turn or by an app, and when it settles. */
export interface RunningCall extends CallFrom {
  /** Resolves once the call has answered, failed or been stopped. */
  readonly settled: Promise<void>;
}

/**
 * The registry with its tool calls counted per server and thread while they run (a server may ask the person only
 * then, and only in the thread of such a call). Only the call to the server counts: not a wait for the person's
 * approval before it, nor the reads before that.
 */
export interface TrackedCalls {
  readonly registry: Registry;
  /** The calls of the server running now that say whose they are (every call of a turn or an app does). */
  readonly running: (serverId: string) => readonly RunningCall[];
  /** Whether the turn of this thread (not an app of it) has a call of the server running now. */
  readonly isTurnCalling: (serverId: string, threadId: string) => boolean;
}

type CallOptions = NonNullable<Parameters<Registry['callTool']>[3]>;
type OnProgress = NonNullable<CallOptions['onProgress']>;

/**
 * Wraps `callTool` to keep the calls in flight by server (with their thread), and (with a guard) to hold back the
 * progress of a server that floods: its latest progress then shows at most once a second. Everything else is the
 * registry's own.
 */
export function trackServerCalls(registry: Registry, guard?: FloodGuard): TrackedCalls {
  const calls = new Map<string, readonly RunningCall[]>();
  const running = (serverId: string) => calls.get(serverId) ?? [];
  const callTool: Registry['callTool'] = async (serverId, toolName, args, options) => {
    let settle = () => {};
    const from = options?.from;
    const call: RunningCall | undefined = from && {
      threadId: from.threadId,
      isApp: from.isApp,
      settled: new Promise<void>((resolve) => (settle = resolve)),
    };
    if (call) calls.set(serverId, [...running(serverId), call]);
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
      if (call) {
        const rest = running(serverId).filter((c) => c !== call);
        if (rest.length > 0) calls.set(serverId, rest);
        else calls.delete(serverId);
        settle();
      }
    }
  };
  const tracked = new Proxy(registry, {
    get(target, property, receiver) {
      if (property === 'callTool') return callTool;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    registry: tracked,
    running,
    isTurnCalling: (serverId, threadId) => running(serverId).some((c) => !c.isApp && c.threadId === threadId),
  };
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
