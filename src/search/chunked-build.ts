import type { SearchableTool } from './tool-document';
import { createToolIndex, type ToolIndex } from './tool-index';

/** How buildIndexInChunks works through a catalog. */
export interface ChunkedBuildOptions {
  /** At most this many tools are indexed between two yields (default 500). */
  readonly chunkSize?: number;
  /**
   * A chunk also ends once it has run this long (default 12 ms), checked every few tools: on a slow or busy device,
   * or before the engine has compiled the hot loops, 500 tools can take far longer than on a fast one.
   */
  readonly budgetMs?: number;
  /** The clock the budget is measured with (default `performance.now`). */
  readonly now?: () => number;
  /** Gives the event loop back (in the browser, e.g. a `setTimeout(0)` or `scheduler.yield()` promise). */
  readonly yield: () => Promise<void>;
  /** An index to fill (its servers in `tools` are replaced); a new one when absent. */
  readonly index?: ToolIndex;
  /** Stops between chunks; the index then holds the servers done so far (a server cut in half is left out). */
  readonly signal?: AbortSignal;
}

const DEFAULT_CHUNK_SIZE = 500;
const DEFAULT_BUDGET_MS = 12;
/** Tools indexed between two looks at the clock. */
const CLOCK_STRIDE = 16;

/** Indexes many tools in chunks, yielding between them, so a large catalog does not freeze the page. */
export async function buildIndexInChunks(
  tools: readonly SearchableTool[],
  options: ChunkedBuildOptions,
): Promise<ToolIndex> {
  const index = options.index ?? createToolIndex();
  const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? DEFAULT_CHUNK_SIZE));
  const byServer = new Map<string, SearchableTool[]>();
  for (const tool of tools) {
    const list = byServer.get(tool.serverId);
    if (list) list.push(tool);
    else byServer.set(tool.serverId, [tool]);
  }
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const now = options.now ?? (() => performance.now());
  let inChunk = 0;
  let chunkStart = now();
  for (const [serverId, serverTools] of byServer) {
    if (options.signal?.aborted) break;
    index.removeServer(serverId);
    for (let start = 0; start < serverTools.length;) {
      const take = Math.min(chunkSize - inChunk, CLOCK_STRIDE, serverTools.length - start);
      index.addTools(serverId, serverTools.slice(start, start + take));
      start += take;
      inChunk += take;
      if (inChunk >= chunkSize || now() - chunkStart >= budgetMs) {
        inChunk = 0;
        await options.yield();
        chunkStart = now();
        if (options.signal?.aborted) {
          // A half-indexed server would answer searches with some of its tools only.
          if (start < serverTools.length) index.removeServer(serverId);
          return index;
        }
      }
    }
  }
  return index;
}
