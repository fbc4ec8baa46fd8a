import type { SearchableTool } from './tool-document';
import { createToolIndex, type ToolIndex } from './tool-index';

/** How buildIndexInChunks works through a catalog. */
export interface ChunkedBuildOptions {
  /** Tools indexed between two yields (default 500: a few milliseconds of work). */
  readonly chunkSize?: number;
  /** Gives the event loop back (in the browser, e.g. a `setTimeout(0)` or `scheduler.yield()` promise). */
  readonly yield: () => Promise<void>;
  /** An index to fill (its servers in `tools` are replaced); a new one when absent. */
  readonly index?: ToolIndex;
  /** Stops between chunks; the index then holds the servers done so far (a server cut in half is left out). */
  readonly signal?: AbortSignal;
}

const DEFAULT_CHUNK_SIZE = 500;

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
  let inChunk = 0;
  for (const [serverId, serverTools] of byServer) {
    if (options.signal?.aborted) break;
    index.removeServer(serverId);
    for (let start = 0; start < serverTools.length;) {
      const take = Math.min(chunkSize - inChunk, serverTools.length - start);
      index.addTools(serverId, serverTools.slice(start, start + take));
      start += take;
      inChunk += take;
      if (inChunk >= chunkSize) {
        inChunk = 0;
        await options.yield();
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
