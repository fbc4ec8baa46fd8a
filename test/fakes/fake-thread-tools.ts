// A hand-written ThreadTools (src/domain/thread-tools.ts) for tests of the agent loop: the tools and their choice are
// the fake's, every call takes the app's real path.
import type { StoredApprovals } from '../../src/agent/approval-policy';
import { silentLogger } from '../../src/domain/logger';
import type { AskApproval, ThreadTools, ToolSearchHit } from '../../src/domain/thread-tools';
import type { EffectiveTool, ModelTool } from '../../src/domain/tool';
import type { ToolCallResult } from '../../src/domain/tool-result';
import { createToolCalls, type ApprovalMemory } from '../../src/turns/tool-calls';

/** A tool of server "srv" as the registry would list it. */
export function agentTool(toolName: string, extra: Partial<EffectiveTool> = {}): EffectiveTool {
  const description = `The ${toolName} tool`;
  return {
    serverId: 'srv',
    serverName: 'Server',
    trust: { origin: 'http://127.0.0.1:8001', authKind: 'none' },
    toolName,
    modelName: `mcp__srv__${toolName}`,
    description,
    definition: { name: toolName, description, inputSchema: { type: 'object', properties: {} } },
    isFromTrustedServer: false,
    ...extra,
  };
}

const definitionOf = (tool: EffectiveTool): ModelTool => ({
  name: tool.modelName,
  description: tool.description,
  input_schema: tool.definition.inputSchema,
});

export interface ListToolsOptions {
  /** Only tool_search is offered at first; what it finds joins the turn's later calls. */
  readonly deferred?: boolean;
  readonly askApproval: AskApproval;
  /** Runs a tool (stands in for the registry). */
  readonly runTool: (
    tool: EffectiveTool,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ) => Promise<ToolCallResult>;
  readonly approvals: StoredApprovals;
  readonly memory: ApprovalMemory;
  readonly hash: (text: string) => Promise<string>;
}

/**
 * ThreadTools over a fixed list, in the order given: everything offered, or (deferred) only what a substring
 * tool_search found. The choice of tools is the fake's; every call takes the real path (src/turns/tool-calls.ts),
 * so approvals, refusals and traces are the app's own.
 */
export function listThreadTools(tools: EffectiveTool[], options: ListToolsOptions): ThreadTools & { used: string[] } {
  const used: string[] = [];
  const found: EffectiveTool[] = [];
  // The fake's thread has only its fixed list: any other name is simply not there.
  const whyUnavailable = (modelName: string) => `There is no tool named ${modelName} in this thread`;
  const calls = createToolCalls({
    resolve: (modelName) => tools.find((t) => t.modelName === modelName),
    whyUnavailable,
    refusal: () => undefined,
    invoke: options.runTool,
    checkArguments: async () => undefined, // The fake's tools take any arguments.
    markUsed: async (tool) => void used.push(tool.modelName),
    askApproval: options.askApproval,
    approvals: options.approvals,
    memory: options.memory,
    hash: options.hash,
    logger: silentLogger,
  });
  const searchTool: ModelTool = {
    name: 'tool_search',
    description: 'Find tools',
    input_schema: { type: 'object', properties: { query: { type: 'string' } } },
  };
  return {
    used,
    list: () => tools,
    resolve: (modelName) => tools.find((t) => t.modelName === modelName),
    whyUnavailable,
    async forCall() {
      const offered = options.deferred ? [...found] : tools;
      calls.offer(offered);
      const definitions = offered.map(definitionOf);
      return {
        tools: offered,
        definitions: options.deferred ? [...definitions, searchTool] : definitions,
        isDeferred: options.deferred ?? false,
      };
    },
    call: (request) => calls.call(request),
    async search(input) {
      const raw = typeof input === 'object' && input !== null && 'query' in input ? input.query : undefined;
      const query = typeof raw === 'string' ? raw : '';
      const hits: ToolSearchHit[] = tools
        .filter((t) => t.description.includes(query) || t.toolName.includes(query))
        .map((tool) => ({ tool, score: 1 }));
      calls.found(hits.map((h) => h.tool));
      for (const hit of hits) if (!found.includes(hit.tool)) found.push(hit.tool);
      return {
        query,
        isError: false,
        hits,
        content: hits.map((h) => `${h.tool.modelName} — ${h.tool.description}`).join('\n'),
        trace: {
          kind: 'tool-search',
          query,
          strategy: 'substring',
          picks: hits.map((h) => ({ name: h.tool.modelName, score: 1 })),
        },
      };
    },
  };
}
