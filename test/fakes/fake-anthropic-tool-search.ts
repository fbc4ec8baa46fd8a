// The API's own tool search tool as the fake runs it, per the tool search page
// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool):
// - two variants, `tool_search_tool_regex_20251119` (name `tool_search_tool_regex`, a Python `re.search` pattern of at
//   most 200 characters) and `tool_search_tool_bm25_20251119` (name `tool_search_tool_bm25`, natural language);
// - it searches the deferred tools' names, descriptions, argument names and argument descriptions;
// - it returns the 3-5 most relevant tools as `tool_reference` blocks inside a `tool_search_tool_result`, after the
//   model's `server_tool_use` block (id `srvtoolu_…`); a bad query is a `tool_search_tool_result_error`.

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The documented variants: type → the name the tool must carry. */
export const TOOL_SEARCH_VARIANTS: Readonly<Record<string, string>> = {
  tool_search_tool_regex_20251119: 'tool_search_tool_regex',
  tool_search_tool_bm25_20251119: 'tool_search_tool_bm25',
};
/** Most tools one search returns. */
export const TOOL_SEARCH_MAX_RESULTS = 5;
/** Longest regex query. */
export const TOOL_SEARCH_MAX_REGEX_CHARS = 200;

export type ToolSearchResultContent =
  | { type: 'tool_search_tool_search_result'; tool_references: { type: 'tool_reference'; tool_name: string }[] }
  | { type: 'tool_search_tool_result_error'; error_code: 'invalid_tool_input'; error_message: string };

/** The request's tool search tool, or undefined when it has none. */
export function findToolSearchTool(tools: readonly unknown[]): { type: string; name: string } | undefined {
  for (const tool of tools)
    if (isRecord(tool) && typeof tool.type === 'string' && tool.type in TOOL_SEARCH_VARIANTS)
      return { type: tool.type, name: String(tool.name) };
  return undefined;
}

/** Name, description, argument names and descriptions of each deferred custom tool. */
function searchableText(tools: readonly unknown[]): { name: string; text: string }[] {
  return tools.filter(isRecord).flatMap((tool) => {
    if (tool.defer_loading !== true || typeof tool.name !== 'string') return [];
    const schema = isRecord(tool.input_schema) ? tool.input_schema : {};
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const args = Object.entries(properties).map(([key, value]) =>
      `${key} ${isRecord(value) && typeof value.description === 'string' ? value.description : ''}`.trim(),
    );
    const description = typeof tool.description === 'string' ? tool.description : '';
    return [{ name: tool.name, text: [tool.name, description, ...args].join('\n') }];
  });
}

const terms = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Runs one search over the request's deferred tools, as the API's tool search tool of `type` would. */
export function runToolSearch(tools: readonly unknown[], type: string, query: string): ToolSearchResultContent {
  const candidates = searchableText(tools);
  let ranked: string[];
  if (type === 'tool_search_tool_regex_20251119') {
    if (query.length > TOOL_SEARCH_MAX_REGEX_CHARS)
      return {
        type: 'tool_search_tool_result_error',
        error_code: 'invalid_tool_input',
        error_message: `Query exceeds ${TOOL_SEARCH_MAX_REGEX_CHARS} characters`,
      };
    let pattern: RegExp;
    try {
      pattern = new RegExp(query.replace(/^\(\?i\)/, ''), 'i');
    } catch {
      return { type: 'tool_search_tool_result_error', error_code: 'invalid_tool_input', error_message: 'Bad pattern' };
    }
    ranked = candidates.filter((c) => pattern.test(c.text)).map((c) => c.name);
  } else {
    const wanted = new Set(terms(query));
    ranked = candidates
      .map((c) => ({ name: c.name, score: terms(c.text).filter((t) => wanted.has(t)).length }))
      .filter((c) => c.score > 0)
      .sort((a, b) => b.score - a.score)
      .map((c) => c.name);
  }
  return {
    type: 'tool_search_tool_search_result',
    tool_references: ranked
      .slice(0, TOOL_SEARCH_MAX_RESULTS)
      .map((name) => ({ type: 'tool_reference', tool_name: name })),
  };
}
