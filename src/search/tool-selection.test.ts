import { describe, expect, it } from 'vitest';
import type { LoadedTool } from '../domain/thread-config';
import { TOOL_SEARCH_NAME } from '../domain/tool';
import { ToolSearchSettings } from '../domain/tool-search-settings';
import type { SearchableTool } from './tool-document';
import { createToolIndex, type ToolIndex } from './tool-index';
import {
  AUTO_DEFER_TOOL_COUNT,
  estimateToolTokens,
  estimateToolsTokens,
  findMentions,
  selectCallTools,
  shouldDefer,
  type CallToolsInput,
} from './tool-selection';

function tool(serverId: string, toolName: string, description: string, serverName = serverId): SearchableTool {
  return {
    serverId,
    serverName,
    toolName,
    modelName: `mcp__${serverId}__${toolName}`,
    description,
    definition: {
      name: toolName,
      inputSchema: { type: 'object', properties: { value: { type: 'string', description: 'The value.' } } },
    },
  };
}

const FEW = [
  tool('weather', 'get_forecast', 'Weather forecast for a city.'),
  tool('files', 'read_file', 'Read a file.'),
];
/** 40 tools on 4 servers: over the auto threshold. */
const MANY = [
  ...FEW,
  tool('github', 'create_issue', 'Open an issue in a GitHub repository.', 'GitHub'),
  tool('github', 'list_pull_requests', 'List pull requests of a repository.', 'GitHub'),
  tool('mail', 'send_email', 'Send an email message.', 'Mail'),
  ...Array.from({ length: 35 }, (_, i) => tool('misc', `misc_tool_${i}`, `Miscellaneous helper number ${i}.`)),
];

const SETTINGS = ToolSearchSettings.parse({});
const indexOf = (tools: readonly SearchableTool[]): ToolIndex => {
  const index = createToolIndex();
  const servers = new Set(tools.map((t) => t.serverId));
  for (const serverId of servers)
    index.upsertServer(
      serverId,
      tools.filter((t) => t.serverId === serverId),
    );
  return index;
};
const input = (overrides: Partial<CallToolsInput> = {}): CallToolsInput => ({
  tools: MANY,
  loadedTools: [],
  pinnedTools: [],
  settings: SETTINGS,
  userMessage: '',
  contextWindowTokens: 200_000,
  index: indexOf(MANY),
  ...overrides,
});
const sentNames = (call: ReturnType<typeof selectCallTools>) => call.modelTools.map((t) => t.name);
const loaded = (ref: SearchableTool, lastUsedAt: number): LoadedTool => ({
  serverId: ref.serverId,
  toolName: ref.toolName,
  lastUsedAt,
});

describe('auto mode: defer only when the thread’s tools are many or large', () => {
  it('sends every tool and no tool_search at or below the threshold', () => {
    const tools = MANY.slice(0, AUTO_DEFER_TOOL_COUNT);
    const call = selectCallTools(input({ tools, index: indexOf(tools) }));
    expect(call.selection.isDeferred).toBe(false);
    expect(sentNames(call)).toHaveLength(AUTO_DEFER_TOOL_COUNT);
    expect(sentNames(call)).not.toContain(TOOL_SEARCH_NAME);
  });

  it('defers above 30 tools: tool_search instead of all definitions', () => {
    const call = selectCallTools(input());
    expect(call.selection.isDeferred).toBe(true);
    expect(sentNames(call)).toEqual([TOOL_SEARCH_NAME]);
  });

  it('defers a few tools whose definitions exceed 10% of the context window', () => {
    const tokens = estimateToolsTokens(FEW);
    expect(shouldDefer(FEW, SETTINGS, tokens * 10 + 10)).toBe(false);
    expect(shouldDefer(FEW, SETTINGS, tokens * 10 - 10)).toBe(true);
  });

  it('obeys deferral "always" and "never"', () => {
    expect(shouldDefer(FEW, { ...SETTINGS, deferral: 'always' }, 200_000)).toBe(true);
    expect(shouldDefer(MANY, { ...SETTINGS, deferral: 'never' }, 200_000)).toBe(false);
    expect(shouldDefer([], { ...SETTINGS, deferral: 'always' }, 200_000)).toBe(false);
  });
});

describe('a server set to always load (deferTools: false)', () => {
  const github = new Set(['github']);

  it('has its tools in every deferred call, as pinned ones', () => {
    const call = selectCallTools(input({ alwaysLoadedServers: github }));
    expect(call.selection.isDeferred).toBe(true);
    expect(sentNames(call)).toEqual([TOOL_SEARCH_NAME, 'mcp__github__create_issue', 'mcp__github__list_pull_requests']);
    expect(call.selection.pinned.map((ref) => ref.serverId)).toEqual(['github', 'github']);
  });

  it('is never deferred in Anthropic mode either', () => {
    const call = selectCallTools(input({ alwaysLoadedServers: github, settings: { ...SETTINGS, mode: 'anthropic' } }));
    const visible = call.modelTools.filter((t) => t.defer_loading !== true).map((t) => t.name);
    expect(visible).toEqual([TOOL_SEARCH_NAME, 'mcp__github__create_issue', 'mcp__github__list_pull_requests']);
  });

  it('does not count toward the auto threshold: the rest may fall below it', () => {
    // 40 tools, 35 of them on "misc": the other 5 are under 30, so nothing is deferred.
    const call = selectCallTools(input({ alwaysLoadedServers: new Set(['misc']) }));
    expect(call.selection.isDeferred).toBe(false);
    expect(sentNames(call)).toHaveLength(MANY.length);
  });
});

describe('a server set to always defer (deferTools: "always")', () => {
  it('is deferred below the auto threshold, while the other servers’ tools are sent whole as pinned', () => {
    const call = selectCallTools(input({ tools: FEW, index: indexOf(FEW), alwaysDeferredServers: new Set(['files']) }));
    expect(call.selection.isDeferred).toBe(true);
    expect(sentNames(call)).toEqual([TOOL_SEARCH_NAME, 'mcp__weather__get_forecast']);
  });

  it('is deferred even where the settings say never', () => {
    const settings = { ...SETTINGS, deferral: 'never' as const };
    const call = selectCallTools(
      input({ tools: FEW, index: indexOf(FEW), settings, alwaysDeferredServers: new Set(['files']) }),
    );
    expect(sentNames(call)).toEqual([TOOL_SEARCH_NAME, 'mcp__weather__get_forecast']);
  });

  it('stays behind tool_search in Anthropic and server-side search modes too', () => {
    for (const mode of ['anthropic', 'server'] as const) {
      const call = selectCallTools(
        input({
          tools: FEW,
          index: indexOf(FEW),
          settings: { ...SETTINGS, mode },
          alwaysDeferredServers: new Set(['files']),
        }),
      );
      const hidden = call.modelTools.filter((t) => t.defer_loading === true).map((t) => t.name);
      expect(hidden).toEqual(['mcp__files__read_file']);
    }
  });

  it('still sends a tool the person pinned', () => {
    const call = selectCallTools(
      input({ tools: FEW, index: indexOf(FEW), pinnedTools: [FEW[1]!], alwaysDeferredServers: new Set(['files']) }),
    );
    expect(sentNames(call)).toContain('mcp__files__read_file');
  });
});

describe('pinned tools are always offered', () => {
  it('is visible (not deferred) in server-side search mode', () => {
    const call = selectCallTools(input({ pinnedTools: [MANY[2]!], settings: { ...SETTINGS, mode: 'server' } }));
    const visible = call.modelTools.filter((t) => t.defer_loading !== true).map((t) => t.name);
    expect(visible).toContain('mcp__github__create_issue');
  });
});

describe('a deferred call', () => {
  it('carries pinned and loaded tools, and tool_search first', () => {
    const call = selectCallTools(input({ pinnedTools: [MANY[2]!], loadedTools: [loaded(MANY[4]!, 5)] }));
    expect(sentNames(call)).toEqual([TOOL_SEARCH_NAME, 'mcp__github__create_issue', 'mcp__mail__send_email']);
    expect(call.selection.pinned).toEqual([{ serverId: 'github', toolName: 'create_issue' }]);
    expect(call.toolsByModelName.get('mcp__mail__send_email')?.toolName).toBe('send_email');
  });

  it('keeps only the most recently used loaded tools past the cap, in load order', () => {
    const loadedTools = MANY.slice(5, 10).map((t, i) => loaded(t, 100 + i));
    const call = selectCallTools(input({ loadedTools, settings: { ...SETTINGS, loadedToolCap: 2 } }));
    expect(call.selection.loaded.map((r) => r.toolName)).toEqual(['misc_tool_3', 'misc_tool_4']);
  });

  it('sends loaded tools in load order, not by name, and this turn’s finds after them', () => {
    const loadedTools = [loaded(MANY[4]!, 1), loaded(MANY[2]!, 2)];
    const call = selectCallTools(input({ loadedTools, requested: [MANY[0]!] }));
    expect(sentNames(call).slice(0, 3)).toEqual([
      TOOL_SEARCH_NAME,
      'mcp__mail__send_email',
      'mcp__github__create_issue',
    ]);
    expect(sentNames(call)[3]).toBe(MANY[0]!.modelName);
  });

  it('drops pinned and loaded tools whose server is no longer enabled in the thread', () => {
    const outside = tool('gone', 'delete_all', 'Deletes everything.');
    const call = selectCallTools(input({ pinnedTools: [outside], loadedTools: [loaded(outside, 1)] }));
    expect(sentNames(call)).toEqual([TOOL_SEARCH_NAME]);
  });

  it('preloads the top tools for the user’s message', () => {
    const call = selectCallTools(
      input({
        userMessage: 'open an issue about the failing build on GitHub',
        settings: { ...SETTINGS, preloadCount: 1 },
      }),
    );
    expect(call.preloaded).toEqual([{ serverId: 'github', toolName: 'create_issue' }]);
    expect(sentNames(call)).toEqual([TOOL_SEARCH_NAME, 'mcp__github__create_issue']);
  });

  it('preloads nothing when preloadCount is 0', () => {
    const call = selectCallTools(
      input({ userMessage: 'open an issue on GitHub', settings: { ...SETTINGS, preloadCount: 0 } }),
    );
    expect(call.preloaded).toEqual([]);
    expect(sentNames(call)).toEqual([TOOL_SEARCH_NAME]);
  });

  it('force-loads @server and @tool mentions', () => {
    const call = selectCallTools(
      input({ userMessage: 'Ask @github, then use @send_email.', settings: { ...SETTINGS, preloadCount: 0 } }),
    );
    expect(call.mentioned.map((r) => r.toolName).sort()).toEqual(['create_issue', 'list_pull_requests', 'send_email']);
    expect(sentNames(call)).toContain('mcp__mail__send_email');
  });

  it('includes the tools tool_search found earlier in the turn', () => {
    const call = selectCallTools(input({ requested: [MANY[4]!] }));
    expect(sentNames(call)).toEqual([TOOL_SEARCH_NAME, 'mcp__mail__send_email']);
  });

  it('costs far fewer tokens than sending every definition', () => {
    const all = selectCallTools(input({ settings: { ...SETTINGS, deferral: 'never' } }));
    const deferred = selectCallTools(input({ userMessage: 'send an email', loadedTools: [loaded(MANY[0]!, 1)] }));
    expect(deferred.estimatedTokens).toBeLessThan(all.estimatedTokens * 0.3);
  });
});

describe('Anthropic mode', () => {
  const anthropic = { ...SETTINGS, mode: 'anthropic' as const };

  it('sends every thread tool with defer_loading, except pinned and mentioned ones, plus tool_search', () => {
    const call = selectCallTools(
      input({ settings: anthropic, pinnedTools: [MANY[0]!], userMessage: 'use @send_email' }),
    );
    expect(call.modelTools[0]?.name).toBe(TOOL_SEARCH_NAME);
    expect(call.modelTools[0]?.defer_loading).toBeUndefined();
    expect(call.modelTools).toHaveLength(MANY.length + 1);
    const visible = call.modelTools.filter((t) => t.defer_loading !== true).map((t) => t.name);
    expect(visible).toEqual([TOOL_SEARCH_NAME, 'mcp__mail__send_email', 'mcp__weather__get_forecast']);
  });

  it('keeps the tool list the same across messages, for the prompt cache', () => {
    const one = selectCallTools(input({ settings: anthropic, userMessage: 'weather in Paris' }));
    const two = selectCallTools(input({ settings: anthropic, userMessage: 'open a GitHub issue' }));
    expect(two.modelTools).toEqual(one.modelTools);
  });
});

describe('findMentions', () => {
  it('matches server names and ids, tool and model names, case and punctuation aside', () => {
    expect(findMentions('@GITHUB please', MANY).map((r) => r.toolName)).toEqual(['create_issue', 'list_pull_requests']);
    expect(findMentions('run @mcp__weather__get_forecast', MANY)).toEqual([
      { serverId: 'weather', toolName: 'get_forecast' },
    ]);
    expect(findMentions('(@github/create-issue)', MANY)).toEqual([{ serverId: 'github', toolName: 'create_issue' }]);
  });

  it('ignores e-mail addresses and unknown names', () => {
    expect(findMentions('write to bob@github.com or @nobody', MANY)).toEqual([]);
  });
});

describe('estimateToolTokens', () => {
  it('grows with the definition and counts a fixed overhead', () => {
    const small = tool('s', 'a', '');
    const large = tool('s', 'a', 'x'.repeat(3_500));
    expect(estimateToolTokens(small)).toBeGreaterThan(20);
    expect(estimateToolTokens(large) - estimateToolTokens(small)).toBe(1_000);
  });
});

describe('preload', () => {
  it('adds new tools: one already loaded does not take a preload place', () => {
    const message = 'open an issue and list the pull requests on GitHub';
    const call = selectCallTools(
      input({ userMessage: message, loadedTools: [loaded(MANY[2]!, 1)], settings: { ...SETTINGS, preloadCount: 1 } }),
    );
    expect(call.selection.loaded).toEqual([{ serverId: 'github', toolName: 'create_issue' }]);
    expect(call.preloaded).toEqual([{ serverId: 'github', toolName: 'list_pull_requests' }]);
  });
});
