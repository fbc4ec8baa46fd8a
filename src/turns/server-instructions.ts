import type { ServerInstructions } from '../agent/system-prompt';
import type { ThreadConfig } from '../domain/thread-config';
import type { Registry } from '../mcp/registry';

/** The instructions of the thread's enabled servers that the thread has not switched off (as last listed). */
export function threadInstructions(
  registry: Registry,
  thread: ThreadConfig,
  enabledServerIds: readonly string[],
): ServerInstructions[] {
  const off = new Set(thread.instructionsOff ?? []);
  return enabledServerIds.flatMap((id) => {
    const server = registry.get(id);
    const text = server?.catalog?.instructions;
    return server && server.config.enabled && text && !off.has(id)
      ? [{ serverId: id, serverName: server.config.name, text }]
      : [];
  });
}
