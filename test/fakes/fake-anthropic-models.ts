// GET /v1/models and /v1/models/{id} of the fake Anthropic API, paginated like the real one.

/** A model the fake lists; extra fields (max_input_tokens, capabilities, …) are passed through. */
export interface FakeModel {
  id: string;
  display_name?: string;
  /** RFC 3339; the list is sorted newest first, like the real API. */
  created_at?: string;
  [field: string]: unknown;
}

/** Illustrative defaults; the SDK warns on deprecated ids (e.g. claude-sonnet-4-5), so none are used here. */
export const DEFAULT_FAKE_MODELS: FakeModel[] = [
  { id: 'claude-opus-5', display_name: 'Claude Opus 5', created_at: '2026-05-01T00:00:00Z' },
  { id: 'claude-sonnet-5', display_name: 'Claude Sonnet 5', created_at: '2026-04-01T00:00:00Z' },
  // Listed for server-side compaction, which its page names for Sonnet 4.6.
  { id: 'claude-sonnet-4-6', display_name: 'Claude Sonnet 4.6', created_at: '2026-02-17T00:00:00Z' },
  { id: 'claude-haiku-4-5-20251001', display_name: 'Claude Haiku 4.5', created_at: '2025-10-01T00:00:00Z' },
];

/**
 * The listed model `id` names: its own id, or the alias of a dated one ("claude-haiku-4-5" for
 * "claude-haiku-4-5-20251001"), as the real API takes both; undefined for a model the fake does not serve.
 */
export function servedModel(models: readonly FakeModel[], id: unknown): FakeModel | undefined {
  if (typeof id !== 'string' || id === '') return undefined;
  return (
    models.find((m) => m.id === id) ??
    models.find((m) => m.id.startsWith(`${id}-`) && /^\d{8}$/.test(m.id.slice(id.length + 1)))
  );
}

function entry(model: FakeModel, window: number): Record<string, unknown> {
  return {
    // The real API lists every model's context window (ModelInfo.max_input_tokens).
    max_input_tokens: window,
    ...model,
    type: 'model',
    display_name: model.display_name ?? model.id,
    created_at: model.created_at ?? '2025-01-01T00:00:00Z',
  };
}

/** The answer to GET `path` (a page, or one model), or null for an unknown model id. */
export function modelsPage(
  models: FakeModel[] = DEFAULT_FAKE_MODELS,
  path: string,
  query: URLSearchParams,
  window = 200_000,
): Record<string, unknown> | null {
  const all = models
    .map((model) => entry(model, window))
    .sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)));
  if (path !== '/v1/models') {
    // "Model identifier or alias" (platform.claude.com/docs/en/api/models/retrieve).
    const served = servedModel(models, decodeURIComponent(path.slice('/v1/models/'.length)));
    return all.find((model) => model.id === served?.id) ?? null;
  }
  const limit = Math.min(1000, Math.max(1, Number(query.get('limit') ?? 20) || 20));
  const afterId = query.get('after_id');
  const beforeId = query.get('before_id');
  let start = 0;
  let end = all.length;
  if (afterId !== null) start = all.findIndex((model) => model.id === afterId) + 1;
  if (beforeId !== null)
    end = Math.max(
      0,
      all.findIndex((model) => model.id === beforeId),
    );
  // before_id pages backwards: the last `limit` items before it.
  const data =
    beforeId !== null ? all.slice(Math.max(start, end - limit), end) : all.slice(start, Math.min(end, start + limit));
  const hasMore = beforeId !== null ? end - limit > start : start + limit < end;
  const ids = data.map((model) => String(model.id));
  return { data, has_more: hasMore, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null };
}
