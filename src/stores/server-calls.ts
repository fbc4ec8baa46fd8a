import type { Registry } from '../mcp/registry';
import { HELD_REFRESH_MS, type FloodGuard } from './flood-guard';

/**
 * A request to a server running now for a thread: a tool call of its turn or of an MCP App of its card, or a read the
 * person made there (a prompt, a resource attached or read; not completions, sent at each key); and when it settles.
 */
export interface RunningCall {
  readonly threadId: string;
  /** Made by the thread's running turn (the model or its code), not by an app or the person. */
  readonly isTurn: boolean;
  /** Resolves once the call has answered, failed or been stopped. */
  readonly settled: Promise<void>;
}

/**
 * Counts `run` as a request of the server for the thread while it runs (a read the person makes there: prompts/get,
 * resources/read), so a question the server asks meanwhile goes to that thread. Without a thread
 * it only runs.
 */
export type CountAsCall = <T>(serverId: string, threadId: string | undefined, run: () => Promise<T>) => Promise<T>;

/** Runs the request without counting it (where no tracker is given). */
export const UNCOUNTED: CountAsCall = (_serverId, _threadId, run) => run();

/**
 * The registry with its tool calls counted per server and thread while they run (a server may ask the person only
 * then, and only in the thread of such a call), and the person's reads counted the same way through `countAsCall`.
 * Only the call to the server counts: not a wait for the person's approval before it, nor the reads before that.
 */
export interface TrackedCalls {
  readonly registry: Registry;
  /** The calls of the server running now that say whose they are (every call of a turn or an app does). */
  readonly running: (serverId: string) => readonly RunningCall[];
  /** Whether the turn of this thread (not an app of it) has a call of the server running now. */
  readonly isTurnCalling: (serverId: string, threadId: string) => boolean;
  readonly countAsCall: CountAsCall;
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
  /** Keeps a call of the server for the thread until the returned function is called. */
  const begin = (serverId: string, threadId: string, isTurn: boolean): (() => void) => {
    let settle = () => {};
    const call: RunningCall = {
      threadId,
      isTurn,
      settled: new Promise<void>((resolve) => (settle = resolve)),
    };
    calls.set(serverId, [...running(serverId), call]);
    return () => {
      const rest = running(serverId).filter((c) => c !== call);
      if (rest.length > 0) calls.set(serverId, rest);
      else calls.delete(serverId);
      settle();
    };
  };
  const countAsCall: CountAsCall = async (serverId, threadId, run) => {
    if (threadId === undefined) return run();
    // Not the turn's: a question then is cancelled as the read ends, as one during an app's call is.
    const end = begin(serverId, threadId, false);
    try {
      return await run();
    } finally {
      end();
    }
  };
  const callTool: Registry['callTool'] = async (serverId, toolName, args, options) => {
    const from = options?.from;
    const end = from && begin(serverId, from.threadId, !from.isApp);
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
      end?.();
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
    isTurnCalling: (serverId, threadId) => running(serverId).some((c) => c.isTurn && c.threadId === threadId),
    countAsCall,
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
