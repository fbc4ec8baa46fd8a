import type { ContentBlock } from '../domain/message';
import type { ToolSearchTrace } from '../domain/trace';

/** The trace of each search the API's own tool search tool ran in an answer (server mode): query and found tools. */
export function serverSearchTraces(blocks: readonly ContentBlock[]): ToolSearchTrace[] {
  const traces: ToolSearchTrace[] = [];
  for (const use of blocks) {
    if (use.type !== 'server_tool_use' || !use.name.startsWith('tool_search_tool_')) continue;
    const result = blocks.find((b) => b.type === 'tool_search_tool_result' && b.tool_use_id === use.id);
    const input = use.input as { query?: unknown } | null;
    const found =
      result?.type === 'tool_search_tool_result' && result.content.type === 'tool_search_tool_search_result'
        ? result.content.tool_references.map((r) => r.tool_name)
        : [];
    traces.push({
      kind: 'tool-search',
      query: typeof input?.query === 'string' ? input.query : '',
      strategy: `server ${use.name.slice('tool_search_tool_'.length)}`,
      // The API ranks but does not say by how much: the picks are in its order, unscored.
      picks: found.map((name) => ({ name, score: 0 })),
    });
  }
  return traces;
}
