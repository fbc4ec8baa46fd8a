import type { Registry } from '../mcp/registry';

/** The registry with its tool calls counted per server while they run (a server may ask the person only then). */
export interface TrackedCalls {
  readonly registry: Registry;
  readonly isCalling: (serverId: string) => boolean;
}

/** Wraps `callTool` to count calls in flight by server; everything else is the registry's own. */
export function trackServerCalls(registry: Registry): TrackedCalls {
  const running = new Map<string, number>();
  const change = (serverId: string, by: number) => {
    const count = (running.get(serverId) ?? 0) + by;
    if (count > 0) running.set(serverId, count);
    else running.delete(serverId);
  };
  const callTool: Registry['callTool'] = async (serverId, ...rest) => {
    change(serverId, 1);
    try {
      return await registry.callTool(serverId, ...rest);
    } finally {
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
