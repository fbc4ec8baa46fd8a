// npm run --silent bench:tokens [-- --tools FILE --queries FILE --loaded 8]
// With every tool of the catalog enabled in one thread, the estimated tokens of tool definitions per model call
// when everything is sent versus with deferral (tool_search + preloaded tools + a typical loaded set), using the
// app's own selection (src/search/tool-selection.ts) and its estimate (src/search/tool-tokens.ts).
import { parseArgs } from 'node:util';
import type { LoadedTool } from '../../src/domain/thread-config';
import { ToolSearchSettings } from '../../src/domain/tool-search-settings';
import type { SearchableTool } from '../../src/search/tool-document';
import { createToolIndex } from '../../src/search/tool-index';
import { CHARS_PER_TOKEN, estimateToolTokens, TOOL_OVERHEAD_TOKENS } from '../../src/search/tool-tokens';
import { selectCallTools } from '../../src/search/tool-selection';
import { readQueries, readTools } from './dataset';
import { groupByServer, scopeOf } from './evaluate';
import { percentile, round } from './metrics';

const { values } = parseArgs({
  options: {
    tools: { type: 'string', default: '../shared/data/toolsearch/livemcpbench/tools.json' },
    queries: { type: 'string', default: '../shared/data/toolsearch/livemcpbench/queries.dev.json' },
    loaded: { type: 'string', default: '8' },
    context: { type: 'string', default: '200000' },
  },
});
const loadedCount = Math.max(0, Number(values.loaded));
const contextWindowTokens = Number(values.context);

/** The model name the registry would give: mcp__{server}__{tool}, [a-zA-Z0-9_-] only, at most 64 characters. */
const modelNameOf = (server: string, tool: string): string =>
  `mcp__${server}__${tool}`.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
const tools: SearchableTool[] = readTools(values.tools).map((t) => ({
  ...t,
  modelName: modelNameOf(t.serverName, t.toolName),
}));
const queries = readQueries(values.queries);

const index = createToolIndex();
for (const [serverId, list] of groupByServer(tools)) index.upsertServer(serverId, list);
const scope = scopeOf(tools);
const defaults = ToolSearchSettings.parse({});
const base = { tools, pinnedTools: [], contextWindowTokens, index };

const everything = selectCallTools({
  ...base,
  loadedTools: [],
  userMessage: '',
  settings: { ...defaults, deferral: 'never' },
});

// A typical loaded set: the tools tool_search found for the previous request of the thread (its top `loaded`).
const perCall = queries.map((q, i) => {
  const previous = queries[(i + queries.length - 1) % queries.length]!;
  const loadedTools: LoadedTool[] = index
    .search(previous.text, { scope, limit: Math.max(1, loadedCount) })
    .matches.slice(0, loadedCount)
    .map((m, rank) => ({ ...m.ref, lastUsedAt: 1_000 - rank }));
  const call = selectCallTools({ ...base, loadedTools, userMessage: q.text, settings: defaults });
  return { tokens: call.estimatedTokens, tools: call.modelTools.length, isDeferred: call.selection.isDeferred };
});
// The worst case of deferral: the loaded set full to its cap with the largest definitions of the catalog.
const largest = [...tools].sort((a, b) => estimateToolTokens(b) - estimateToolTokens(a));
const fullLoaded: LoadedTool[] = largest
  .slice(0, defaults.loadedToolCap)
  .map((t, rank) => ({ serverId: t.serverId, toolName: t.toolName, lastUsedAt: 1_000 - rank }));
const worst = selectCallTools({
  ...base,
  loadedTools: fullLoaded,
  userMessage: queries[0]?.text ?? '',
  settings: defaults,
});

const deferredMedian = percentile(
  perCall.map((c) => c.tokens),
  50,
);
console.log(
  JSON.stringify(
    {
      estimate: `ceil(JSON.stringify({ name, description, input_schema }).length / ${CHARS_PER_TOKEN}) + ${TOOL_OVERHEAD_TOKENS} per tool definition`,
      enabledTools: tools.length,
      everythingSent: { tools: everything.modelTools.length, tokens: everything.estimatedTokens },
      deferred: {
        setup: `tool_search + ${defaults.preloadCount} preloaded for the message + ${loadedCount} loaded earlier in the thread (median over ${queries.length} requests)`,
        isDeferred: perCall.every((c) => c.isDeferred),
        toolsMedian: percentile(
          perCall.map((c) => c.tools),
          50,
        ),
        tokensMedian: deferredMedian,
        tokensP95: percentile(
          perCall.map((c) => c.tokens),
          95,
        ),
      },
      deferredFullCap: {
        setup: `loaded set full: the ${defaults.loadedToolCap} largest definitions`,
        tools: worst.modelTools.length,
        tokens: worst.estimatedTokens,
      },
      reduction: round(1 - deferredMedian / everything.estimatedTokens),
      reductionFullCap: round(1 - worst.estimatedTokens / everything.estimatedTokens),
      ratio: round(everything.estimatedTokens / deferredMedian, 1),
    },
    null,
    2,
  ),
);
