// The contract with the agent loop: which tool definitions one model call carries.
import { assertNever } from '../domain/errors';
import type { LoadedTool } from '../domain/thread-config';
import type { ModelTool } from '../domain/tool';
import type { CallToolSelection, ToolRef } from '../domain/tool-catalog';
import type { ToolSearchSettings } from '../domain/tool-search-settings';
import { capLoadedTools, refKey } from './loaded-tools';
import { findMentions } from './mentions';
import type { SearchableTool } from './tool-document';
import { scopeForTools, type ToolIndex } from './tool-index';
import { serverToolSearchDefinition, toolSearchToolDefinition } from './tool-search-tool';
import { estimateToolsTokens, toModelTool } from './tool-tokens';

export { touchLoadedTools, capLoadedTools } from './loaded-tools';
export { findMentions } from './mentions';
export { estimateToolTokens, estimateToolsTokens, toModelTool } from './tool-tokens';
export {
  answerToolSearch,
  formatToolSearchResult,
  parseToolSearchInput,
  toolReferenceBlocks,
  toolSearchToolDefinition,
  type ToolReferenceBlock,
  type ToolSearchAnswer,
  type ToolSearchContext,
} from './tool-search-tool';

/** Auto mode defers when the thread has more tools than this… */
export const AUTO_DEFER_TOOL_COUNT = 30;
/** …or when their definitions would take more than this share of the model's context window. */
export const AUTO_DEFER_CONTEXT_SHARE = 0.1;

/** Everything one model call's tool list depends on; `T` is the caller's tool shape, handed back as it is. */
export interface CallToolsInput<T extends SearchableTool = SearchableTool> {
  /** The thread's enabled tools (enabled servers, tools not disabled): nothing outside them is ever sent. */
  readonly tools: readonly T[];
  readonly loadedTools: readonly LoadedTool[];
  readonly pinnedTools: readonly ToolRef[];
  readonly settings: ToolSearchSettings;
  /** The user's message that started this turn (preload and mentions); the same for every call of the turn. */
  readonly userMessage: string;
  readonly contextWindowTokens: number;
  readonly index: Pick<ToolIndex, 'search'>;
  /** Tools tool_search found earlier in this turn, when the caller has not stored them in loadedTools yet. */
  readonly requested?: readonly ToolRef[];
  /** Servers whose tools are never deferred (ServerConfig.deferTools false): sent in every call, like pinned ones. */
  readonly alwaysLoadedServers?: ReadonlySet<string>;
  /** Servers whose tools are always deferred (ServerConfig.deferTools "always"), whatever the settings say. */
  readonly alwaysDeferredServers?: ReadonlySet<string>;
}

/** The tools search chose for one model call. */
export interface CallToolChoice<T extends SearchableTool = SearchableTool> {
  readonly selection: CallToolSelection;
  /** The thread tools this call offers (in Anthropic mode all of them, most deferred), in `modelTools` order. */
  readonly tools: readonly T[];
  /** The `tool_search` definition when tools are deferred. */
  readonly searchTool?: ModelTool;
  /**
   * The request's `tools`: `tool_search` first; then every tool by name (not deferred, Anthropic mode), or (client mode)
   * pinned, loaded in load order and this turn's finds at the end: append-only, so the prompt cache stays warm.
   */
  readonly modelTools: readonly ModelTool[];
  /** `tools` by model name, to dispatch a `tool_use`. */
  readonly toolsByModelName: ReadonlyMap<string, T>;
  readonly preloaded: readonly ToolRef[];
  readonly mentioned: readonly ToolRef[];
  /** Estimated tokens of the definitions the model actually sees (deferred ones excluded). */
  readonly estimatedTokens: number;
}

/** Whether this thread's calls defer tools: forced by `deferral`, or in auto mode when the tools are many or large. */
export function shouldDefer(
  tools: readonly SearchableTool[],
  settings: ToolSearchSettings,
  contextWindowTokens: number,
): boolean {
  if (tools.length === 0) return false;
  switch (settings.deferral) {
    case 'always':
      return true;
    case 'never':
      return false;
    case 'auto':
      return (
        tools.length > AUTO_DEFER_TOOL_COUNT ||
        estimateToolsTokens(tools) > AUTO_DEFER_CONTEXT_SHARE * contextWindowTokens
      );
    default:
      return assertNever(settings.deferral);
  }
}

/** Refs resolved against the thread's tools (so out-of-scope refs vanish), without repeats of `taken`. */
function resolve<T extends SearchableTool>(
  refs: readonly ToolRef[],
  byKey: ReadonlyMap<string, T>,
  taken: Set<string>,
): T[] {
  const out: T[] = [];
  for (const ref of refs) {
    const key = refKey(ref);
    const tool = byKey.get(key);
    if (!tool || taken.has(key)) continue;
    taken.add(key);
    out.push(tool);
  }
  return out;
}

const refOf = (tool: SearchableTool): ToolRef => ({ serverId: tool.serverId, toolName: tool.toolName });
const byModelName = (a: SearchableTool, b: SearchableTool): number =>
  a.modelName < b.modelName ? -1 : a.modelName > b.modelName ? 1 : 0;
const byName = <T extends SearchableTool>(tools: readonly T[]): ReadonlyMap<string, T> =>
  new Map(tools.map((tool) => [tool.modelName, tool]));

/**
 * The tools for one model call. Not deferred: every thread tool, no `tool_search`. Deferred (client mode): `tool_search`,
 * the pinned tools, the loaded tools (most recent `loadedToolCap`, in load order), the tools found earlier in the turn
 * (`requested`), the top `preloadCount` tools for the user's message and the tools it `@mentions`, in that order; the
 * caller adds the preloaded and mentioned ones to the thread's loaded tools at once (touchLoadedTools), so the next
 * call's list starts with this one's. Deferred (Anthropic mode): `tool_search` and every thread tool, all with
 * `defer_loading: true` except the pinned and mentioned ones; no preload, so the tool list (and the prompt cache)
 * stays the same from turn to turn, and the API expands what `tool_reference` blocks name. Deferred (server mode): the
 * API's own tool search tool and every thread tool but the pinned ones with `defer_loading: true`. A server set to always
 * load counts as pinned; one set to always defer makes the call deferred even where the settings would not, and then
 * the other servers' tools are sent as pinned.
 */
export function selectCallTools<T extends SearchableTool>(input: CallToolsInput<T>): CallToolChoice<T> {
  const { tools, settings } = input;
  const byKey = new Map(tools.map((tool) => [refKey(tool), tool] as const));
  const taken = new Set<string>();
  const alwaysLoaded = input.alwaysLoadedServers ?? new Set<string>();
  const alwaysDeferred = input.alwaysDeferredServers ?? new Set<string>();
  // The settings weigh only the tools whose server leaves the choice to them (not always loaded, not always deferred).
  const deferrable = tools.filter((tool) => !alwaysLoaded.has(tool.serverId) && !alwaysDeferred.has(tool.serverId));
  const isRestDeferred = deferrable.length > 0 && shouldDefer(deferrable, settings, input.contextWindowTokens);
  const isDeferred = isRestDeferred || tools.some((tool) => alwaysDeferred.has(tool.serverId));
  // Tools of an always-loaded server count as pinned, and so do the rest when only always-deferred servers defer.
  const pinned = resolve(
    [
      ...input.pinnedTools,
      ...tools.filter((tool) => alwaysLoaded.has(tool.serverId)),
      ...(isRestDeferred ? [] : deferrable),
    ],
    byKey,
    taken,
  );

  if (!isDeferred) {
    const sorted = [...tools].sort(byModelName);
    const modelTools = sorted.map((tool) => toModelTool(tool));
    return {
      selection: { pinned: pinned.map(refOf), loaded: [], searched: [], isDeferred: false },
      tools: sorted,
      modelTools,
      toolsByModelName: byName(sorted),
      preloaded: [],
      mentioned: [],
      estimatedTokens: estimateToolsTokens(modelTools),
    };
  }

  if (settings.mode === 'server') {
    // Every thread tool but the pinned ones deferred; the API's own search tool finds them.
    const visible = new Set(pinned.map(refKey));
    const sorted = [...tools].sort(byModelName);
    const modelTools = [
      serverToolSearchDefinition(settings.strategy),
      ...sorted.map((tool) => toModelTool(tool, !visible.has(refKey(tool)))),
    ];
    return {
      selection: { pinned: pinned.map(refOf), loaded: [], searched: [], isDeferred: true },
      tools: sorted,
      modelTools,
      toolsByModelName: byName(sorted),
      preloaded: [],
      mentioned: [],
      estimatedTokens: estimateToolsTokens(modelTools.filter((tool) => tool.defer_loading !== true)),
    };
  }

  const searchTool = toolSearchToolDefinition(settings.strategy);
  const mentionsOf = () => resolve(findMentions(input.userMessage, tools, settings.loadedToolCap), byKey, taken);

  if (settings.mode === 'anthropic') {
    const mentioned = mentionsOf();
    const visible = new Set([...pinned, ...mentioned].map(refKey));
    const sorted = [...tools].sort(byModelName);
    const modelTools = [searchTool, ...sorted.map((tool) => toModelTool(tool, !visible.has(refKey(tool))))];
    return {
      selection: { pinned: pinned.map(refOf), loaded: [], searched: mentioned.map(refOf), isDeferred: true },
      tools: sorted,
      searchTool,
      modelTools,
      toolsByModelName: byName(sorted),
      preloaded: [],
      mentioned: mentioned.map(refOf),
      estimatedTokens: estimateToolsTokens(modelTools.filter((tool) => tool.defer_loading !== true)),
    };
  }

  // Client mode: the list only grows at its end within a thread (pinned, then loaded in load order, then this turn's
  // finds), so each request's tools are a prefix-stable extension of the previous one's and the prompt cache holds.
  const loaded = resolve(capLoadedTools(input.loadedTools, settings.loadedToolCap), byKey, taken);
  const requested = resolve(input.requested ?? [], byKey, taken);
  const mentioned = mentionsOf();
  // The top `preloadCount` tools for the message that the call does not carry already.
  const preloadRefs =
    settings.preloadCount > 0 && input.userMessage.trim() !== ''
      ? input.index
          .search(input.userMessage, {
            scope: scopeForTools(tools),
            limit: settings.preloadCount + taken.size,
            strategy: 'bm25',
          })
          .matches.map((m) => m.ref)
          .filter((ref) => !taken.has(refKey(ref)))
          .slice(0, settings.preloadCount)
      : [];
  const preloaded = resolve(preloadRefs, byKey, taken);
  const sent = [...pinned, ...loaded, ...requested, ...preloaded, ...mentioned];
  const modelTools = [searchTool, ...sent.map((tool) => toModelTool(tool))];
  return {
    selection: {
      pinned: pinned.map(refOf),
      loaded: loaded.map(refOf),
      searched: [...requested, ...preloaded, ...mentioned].map(refOf),
      isDeferred: true,
    },
    tools: sent,
    searchTool,
    modelTools,
    toolsByModelName: byName(sent),
    preloaded: preloaded.map(refOf),
    mentioned: mentioned.map(refOf),
    estimatedTokens: estimateToolsTokens(modelTools),
  };
}
