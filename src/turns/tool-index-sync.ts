import { logFailure, silentLogger, type Logger } from '../domain/logger';
import type { Registry } from '../mcp/registry';
import type { BackgroundSlices } from '../platform/background-slices';
import type { ToolIndex } from '../search/tool-index';

/** Tools indexed between two looks at the clock (about half a millisecond of work). */
const STRIDE = 16;

/** The search index following the registry's catalogs. */
export interface ToolIndexSync {
  /** Resolves once the index holds every server's tools as the registry lists them now (soon when it already does). */
  settled(): Promise<void>;
  /** Stops following the registry; work under way ends at its next slice. */
  stop(): void;
}

/**
 * Keeps the search index in step with the registry's catalogs, in background slices: a catalog of thousands of tools
 * (read from storage at start-up, or listed by a server) is indexed a few tools at a time between the page's own
 * work, in the person's pauses in typing, so typing never waits for it; a turn that needs the index hurries it. A
 * server whose tools change again meanwhile starts over with its new ones.
 */
export function syncToolIndex(
  registry: Pick<Registry, 'list' | 'get' | 'tools' | 'subscribe'>,
  index: Pick<ToolIndex, 'upsertServer' | 'addTools' | 'removeServer'>,
  slices: BackgroundSlices,
  logger: Logger = silentLogger,
): ToolIndexSync {
  /** Servers whose tools the index does not hold as listed now, oldest change first. */
  const pending = new Set<string>();
  let running: Promise<void> | undefined;
  let isStopped = false;

  const kick = () => {
    if (running || isStopped || pending.size === 0) return;
    running = work()
      .catch(logFailure(logger, 'Updating the tool search index failed'))
      .finally(() => {
        running = undefined;
        kick();
      });
  };
  const mark = (serverId: string) => {
    pending.add(serverId);
    kick();
  };

  async function work(): Promise<void> {
    // A later task: the registrations of start-up come in a burst, and the page paints first.
    await slices.next();
    let sliceStart = slices.now();
    const pause = async () => {
      await slices.next();
      sliceStart = slices.now();
    };
    while (!isStopped && pending.size > 0) {
      const serverId = pending.values().next().value as string;
      pending.delete(serverId);
      const tools = registry.get(serverId) ? registry.tools([serverId]) : [];
      if (tools.length <= STRIDE) index.upsertServer(serverId, tools);
      else {
        index.removeServer(serverId);
        for (let start = 0; start < tools.length; start += STRIDE) {
          if (slices.isOver(sliceStart)) {
            await pause();
            // Changed again (or stopped) meanwhile: what it listed before is not worth finishing.
            if (isStopped || pending.has(serverId)) break;
          }
          index.addTools(serverId, tools.slice(start, start + STRIDE));
        }
      }
      if (slices.isOver(sliceStart)) await pause();
    }
  }

  for (const server of registry.list()) mark(server.config.id);
  const unsubscribe = registry.subscribe((event) => {
    if (event.type === 'tools' || event.type === 'registered' || event.type === 'unregistered') mark(event.serverId);
  });
  return {
    async settled() {
      // Someone waits: the work goes on through the person's typing until it is done.
      const release = slices.hurry();
      try {
        while (running) await running;
      } finally {
        release();
      }
    },
    stop() {
      isStopped = true;
      pending.clear();
      unsubscribe();
    },
  };
}
