import type { AgentTool, CallTools, ToolChooser } from '../agent/ports';
import { trustOf, type ServerTrust } from '../domain/server-trust';
import type { LoadedTool, ThreadConfig } from '../domain/thread-config';
import type { ToolSearchSettings } from '../domain/tool-search-settings';
import type { EffectiveTool, Registry } from '../mcp/registry';
import type { ToolIndex } from '../search/tool-index';
import { answerToolSearch, selectCallTools, touchLoadedTools } from '../search/tool-selection';

/** Keeps the search index in step with the registry's catalogs; returns the unsubscribe. */
export function syncToolIndex(registry: Registry, index: ToolIndex): () => void {
  const refresh = (serverId: string) =>
    index.upsertServer(serverId, registry.get(serverId) ? registry.tools([serverId]) : []);
  for (const server of registry.list()) refresh(server.config.id);
  return registry.subscribe((event) => {
    if (event.type === 'tools' || event.type === 'registered' || event.type === 'unregistered') refresh(event.serverId);
  });
}

export function toAgentTool(tool: EffectiveTool, trust: ServerTrust, isFromTrustedServer = false): AgentTool {
  const annotations = tool.definition.annotations as AgentTool['annotations'] | undefined;
  return {
    serverId: tool.serverId,
    serverName: tool.serverName,
    trust,
    toolName: tool.toolName,
    modelName: tool.modelName,
    description: tool.description,
    inputSchema: tool.definition.inputSchema,
    ...(annotations ? { annotations } : {}),
    ...(tool.isCallableFromCode === false ? { isCallableFromCode: false as const } : {}),
    isFromTrustedServer,
  };
}

export interface ThreadToolsDeps {
  readonly registry: Registry;
  readonly index: ToolIndex;
  readonly settings: ToolSearchSettings;
  readonly contextWindowTokens: number;
  readonly now: () => number;
  readonly thread: ThreadConfig;
  /** The servers enabled in the thread now; read on every use, never a copy from the turn's start. */
  readonly enabledServerIds: () => readonly string[];
  /** Persists the thread's loaded tools (least recently used dropped past the cap). */
  readonly saveLoaded: (loaded: LoadedTool[]) => Promise<void>;
}

/**
 * The agent's view of a thread's tools: only the servers enabled in the thread, tools not disabled,
 * chosen per call by tool search (or all of them when there are few).
 */
export function createThreadToolChooser(deps: ThreadToolsDeps): ToolChooser {
  let loaded = deps.thread.loadedTools;
  const threadTools = () => deps.registry.tools(deps.enabledServerIds());
  const agentTool = (tool: EffectiveTool) => {
    const server = deps.registry.get(tool.serverId);
    // Trust is the server's identity as it is now (a registered server always has one; the fallback matches no approval).
    const trust = server ? trustOf(server.config) : { origin: '', authKind: 'none' as const };
    return toAgentTool(tool, trust, server?.scope === 'app');
  };
  const remember = async (next: LoadedTool[]) => {
    loaded = next;
    await deps.saveLoaded(next).catch(() => undefined); // Best-effort: the turn goes on with the in-memory set.
  };
  return {
    strategy: deps.settings.strategy,
    allTools: () => threadTools().map(agentTool),
    forCall({ userText }): Promise<CallTools> {
      const tools = threadTools();
      const chosen = selectCallTools({
        tools,
        loadedTools: loaded,
        pinnedTools: deps.thread.pinnedTools,
        settings: deps.settings,
        userMessage: userText,
        contextWindowTokens: deps.contextWindowTokens,
        index: deps.index,
      });
      return Promise.resolve({
        tools: [...chosen.toolsByModelName.values()].map((t) => agentTool(t as EffectiveTool)),
        definitions: chosen.modelTools,
        isDeferred: chosen.selection.isDeferred,
      });
    },
    async runSearch(input) {
      const tools = threadTools();
      const answer = answerToolSearch(input, {
        index: deps.index,
        tools,
        settings: deps.settings,
        loadedTools: loaded,
        now: deps.now(),
      });
      if (!answer.isError) await remember([...answer.loadedTools]);
      const byName = new Map(tools.map((t) => [t.modelName, t]));
      const query = typeof (input as { query?: unknown }).query === 'string' ? (input as { query: string }).query : '';
      return {
        query,
        content: answer.content,
        isError: answer.isError,
        hits: answer.matches.flatMap((m) => {
          const tool = byName.get(m.modelName);
          return tool ? [{ tool: agentTool(tool), score: m.score }] : [];
        }),
      };
    },
    async markUsed(used) {
      await remember(touchLoadedTools(loaded, used, deps.now(), deps.settings.loadedToolCap));
    },
  };
}
