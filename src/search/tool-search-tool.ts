import type { LoadedTool } from '../domain/thread-config';
import { TOOL_SEARCH_NAME, type CustomModelTool, type ServerSearchTool } from '../domain/tool';
import type { ToolSearchSettings } from '../domain/tool-search-settings';
import { touchLoadedTools } from './loaded-tools';
import type { ToolMatch, ToolSearchResult } from './search-result';
import type { SearchableTool } from './tool-document';
import { scopeForTools, type SearchStrategy, type ToolIndex } from './tool-index';

/** Tools one tool_search call returns (and loads) when the model gives no limit. */
export const TOOL_SEARCH_DEFAULT_LIMIT = 5;
/** Most tools one tool_search call returns: each is loaded into the next call. */
export const TOOL_SEARCH_MAX_LIMIT = 20;
const MAX_QUERY_INPUT_CHARS = 1_000;

/** The `tool_search` definition sent with every deferred call; its query is words (bm25) or a pattern (regex). */
export function toolSearchToolDefinition(strategy: SearchStrategy = 'bm25'): CustomModelTool {
  const query =
    strategy === 'regex'
      ? 'A regular expression (JavaScript syntax, case-insensitive) matched against tool names, descriptions and parameters, e.g. "weather|forecast" or "create.*issue".'
      : 'Words describing what you need to do, e.g. "stock price history" or "convert docx to pdf". Name the action and the object; no need for full sentences.';
  return {
    name: TOOL_SEARCH_NAME,
    description:
      'Search the tools of the MCP servers enabled in this conversation. Only some of their tools are loaded right now; ' +
      'when you need a capability that none of your current tools offers, call this first. It returns the matching tools ' +
      '(name and a one-line description) and loads them, so you can call them in your next step. Search again with other ' +
      'words if nothing fits.',
    input_schema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: query },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: TOOL_SEARCH_MAX_LIMIT,
          description: `How many tools to return (default ${TOOL_SEARCH_DEFAULT_LIMIT}).`,
        },
      },
      required: ['query'],
    },
  };
}

/**
 * Server mode: the API's own tool search tool, BM25 (natural-language queries) or regex (Python `re.search` patterns),
 * as the tool search page documents it (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool).
 * It is never deferred; the API runs it and answers with `tool_search_tool_result` blocks naming deferred tools.
 */
export function serverToolSearchDefinition(strategy: SearchStrategy = 'bm25'): ServerSearchTool {
  return strategy === 'regex'
    ? { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' }
    : { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The arguments of a `tool_search` call, checked. */
export interface ToolSearchInput {
  readonly query: string;
  readonly limit: number;
}

/** Reads the model's `tool_search` input; a missing or non-string query is an error the model can fix. */
export function parseToolSearchInput(input: unknown): ToolSearchInput | { readonly error: string } {
  const record: Record<string, unknown> = isRecord(input) ? input : {};
  if (typeof record.query !== 'string')
    return { error: 'tool_search needs a "query" string, e.g. {"query": "send email"}.' };
  const rawLimit =
    typeof record.limit === 'number' && Number.isFinite(record.limit)
      ? Math.floor(record.limit)
      : TOOL_SEARCH_DEFAULT_LIMIT;
  return {
    query: record.query.slice(0, MAX_QUERY_INPUT_CHARS),
    limit: Math.min(TOOL_SEARCH_MAX_LIMIT, Math.max(1, rawLimit)),
  };
}

/**
 * Client mode: the text answer of a search, one line per match with its server and a one-line description, and a
 * note when nothing matched well, so the model rephrases rather than picks a poor match.
 */
export function formatToolSearchResult(
  query: string,
  result: ToolSearchResult,
  serverNote: (serverId: string) => string | undefined = () => undefined,
): string {
  if (!result.ok) return result.error.message;
  const shown = query.length > 80 ? `${query.slice(0, 79)}…` : query;
  if (result.matches.length === 0) {
    return `No tools matched "${shown}". Try other words for the action or the object, or a shorter query.`;
  }
  const lines = result.matches.map((m) => {
    const note = serverNote(m.ref.serverId);
    return `- ${m.modelName} (server: ${m.serverName}${note ? `, ${note}` : ''}) — ${m.description || '(no description)'}`;
  });
  const note = result.isTruncated ? ' (the search stopped early; refine the pattern to see more)' : '';
  const count = result.matches.length;
  const head =
    count === 1
      ? `Found 1 tool for "${shown}"${note}; it is loaded and you can call it now:`
      : `Found ${count} tools for "${shown}"${note}; they are loaded and you can call them now:`;
  if (!result.weakMatch) return [head, ...lines].join('\n');
  const { matchedWords, queryWords } = result.weakMatch;
  const warning =
    `None of them matched "${shown}" well (the best covers ${matchedWords} of its ${queryWords} words). ` +
    'If none fits, search again with other words for the action or the object rather than use a poor match.';
  return [warning, head, ...lines].join('\n');
}

// Anthropic mode, as documented: the tool search page of the Claude docs (platform.claude.com/docs/en/agents-and-tools/
// tool-use/tool-search-tool) says a custom, client-side search may answer with `tool_reference` blocks, and that tools
// sent with `defer_loading: true` stay out of the prompt until such a block names them; the non-deferred search tool
// must remain. The SDK's types agree (@anthropic-ai/sdk messages.d.ts): `Tool.defer_loading` "If true, tool will not be
// included in initial system prompt. Only loaded when returned via tool_reference from tool search", and
// `ToolReferenceBlockParam { type: 'tool_reference'; tool_name }` is allowed in `ToolResultBlockParam.content`.

/** A `tool_reference` content block, as the Messages API takes it inside a `tool_result`. */
export interface ToolReferenceBlock {
  readonly type: 'tool_reference';
  readonly tool_name: string;
}

/** Anthropic mode: one `tool_reference` block per match, naming the (deferred) tool the API should expand. */
export function toolReferenceBlocks(matches: readonly ToolMatch[]): ToolReferenceBlock[] {
  return matches.map((m) => ({ type: 'tool_reference', tool_name: m.modelName }));
}

/** What the agent puts in the `tool_result` of a `tool_search` call, and the thread's loaded tools after it. */
export interface ToolSearchAnswer {
  /** The query as searched ('' when the input had none). */
  readonly query: string;
  readonly content: string | readonly ToolReferenceBlock[];
  readonly isError: boolean;
  readonly matches: readonly ToolMatch[];
  readonly loadedTools: readonly LoadedTool[];
}

/** What answering a tool_search call needs from the thread. */
export interface ToolSearchContext {
  readonly index: Pick<ToolIndex, 'search'>;
  /** The thread's enabled tools: the search's hard scope. */
  readonly tools: readonly SearchableTool[];
  readonly settings: ToolSearchSettings;
  readonly loadedTools: readonly LoadedTool[];
  readonly now: number;
  /** What the model should know of a server's state (it is down, it needs a sign-in), said beside its tools. */
  readonly serverNote?: (serverId: string) => string | undefined;
}

/** Runs one `tool_search` call of the model; never throws, and only tools in the thread's scope come back. */
export function answerToolSearch(input: unknown, context: ToolSearchContext): ToolSearchAnswer {
  const parsed = parseToolSearchInput(input);
  if ('error' in parsed)
    return { query: '', content: parsed.error, isError: true, matches: [], loadedTools: context.loadedTools };
  const limit = Math.min(parsed.limit, context.settings.loadedToolCap);
  const result = context.index.search(parsed.query, {
    scope: scopeForTools(context.tools),
    limit,
    strategy: context.settings.strategy,
  });
  if (!result.ok)
    return {
      query: parsed.query,
      content: result.error.message,
      isError: true,
      matches: [],
      loadedTools: context.loadedTools,
    };
  const loadedTools = touchLoadedTools(
    context.loadedTools,
    result.matches.map((m) => m.ref),
    context.now,
    context.settings.loadedToolCap,
  );
  const content =
    context.settings.mode === 'anthropic' && result.matches.length > 0
      ? toolReferenceBlocks(result.matches)
      : formatToolSearchResult(parsed.query, result, context.serverNote);
  return { query: parsed.query, content, isError: false, matches: result.matches, loadedTools };
}
