import { describe, expect, it, vi } from 'vitest';
import { MemoryTurnStore, ScriptedModel, lastUserText, type ScriptedAnswer } from '../../test/fakes/fake-agent-ports';
import { agentTool, listThreadTools, type ListToolsOptions } from '../../test/fakes/fake-thread-tools';
import { ModelError } from '../domain/model-errors';
import type { AskApproval } from '../domain/thread-tools';
import type { EffectiveTool } from '../domain/tool';
import type { Approval } from '../domain/trace';
import type { ToolCallResult } from '../domain/tool-result';
import { runTurn } from './run-turn';
import type { TurnDeps } from './turn-deps';

const ok = (text: string): ToolCallResult => ({ content: [{ type: 'text', text }], isError: false, durationMs: 5 });
const say = (text: string): ScriptedAnswer => ({ blocks: [{ type: 'text', text }] });
const use = (name: string, input: unknown, id = `tu-${name}`): ScriptedAnswer => ({
  blocks: [{ type: 'tool_use', id, name, input }],
});

function setup(
  script: ScriptedAnswer[],
  options: {
    tools?: EffectiveTool[];
    deferred?: boolean;
    approve?: Approval;
    runTool?: ListToolsOptions['runTool'];
    maxModelCalls?: number;
    now?: () => number;
  } = {},
) {
  const now = options.now ?? (() => Date.now());
  const model = new ScriptedModel(script);
  const store = new MemoryTurnStore(now);
  const asked: string[] = [];
  const calls: { tool: string; args: Record<string, unknown> }[] = [];
  const askApproval: AskApproval = async (request) => {
    asked.push(request.tool.modelName);
    return options.approve ?? 'allow-once';
  };
  const tools = listThreadTools(options.tools ?? [agentTool('weather'), agentTool('calendar')], {
    deferred: options.deferred ?? false,
    askApproval,
    runTool:
      options.runTool ??
      (async (tool, args) => {
        calls.push({ tool: tool.modelName, args });
        return ok(`${tool.toolName} says hi`);
      }),
    approvals: { always: store.alwaysApprovals, thread: store.threadApprovals },
    memory: store,
    hash: async (text) => `h${text.length}`,
  });
  const deps: TurnDeps = {
    model,
    tools,
    persistence: store,
    now,
    settings: {
      model: 'claude-test',
      maxTokens: 1000,
      system: 'Be brief.',
      maxModelCalls: options.maxModelCalls ?? 20,
    },
  };
  return { deps, model, store, tools, asked, calls };
}

describe('runTurn', () => {
  it('streams a plain answer and stores both messages with a trace of the model call', async () => {
    const { deps, store } = setup([say('Hello there, friend.')]);
    expect(await runTurn('Hi', deps, new AbortController().signal)).toEqual({ status: 'done' });
    expect(store.texts()).toEqual(['Hi', 'Hello there, friend.']);
    expect(store.messages.map((m) => m.status)).toEqual(['complete', 'complete']);
    expect(store.messages[1]?.trace[0]).toMatchObject({
      kind: 'model-call',
      model: 'claude-test',
      usage: { input: 100, output: 20, cacheRead: 80 },
      stopReason: 'end_turn',
    });
  });

  it('sends the system prompt and tools (the adapter places cache breakpoints: cache-breakpoints.ts)', async () => {
    const { deps, model } = setup([say('ok')]);
    await runTurn('Hi', deps, new AbortController().signal);
    const request = model.requests[0]!;
    expect(request.system).toBe('Be brief.');
    expect(request.tools.map((t) => t.name)).toEqual(['mcp__srv__weather', 'mcp__srv__calendar']);
  });

  it('asks before a tool runs, runs it, sends the result back and finishes', async () => {
    const { deps, store, asked, calls, model } = setup([
      use('mcp__srv__weather', { city: 'Oslo' }),
      say('It is sunny in Oslo.'),
    ]);
    expect((await runTurn('Weather in Oslo?', deps, new AbortController().signal)).status).toBe('done');
    expect(asked).toEqual(['mcp__srv__weather']);
    expect(calls).toEqual([{ tool: 'mcp__srv__weather', args: { city: 'Oslo' } }]);
    expect(lastUserText(model.requests[1]!)).toContain('weather says hi');
    expect(store.texts()).toEqual(['Weather in Oslo?', '[tool_use]', '[tool_result]', 'It is sunny in Oslo.']);
    expect(store.messages[1]?.trace.map((t) => t.kind)).toEqual(['model-call', 'tool-call']);
    expect(store.messages[1]?.trace[1]).toMatchObject({
      tool: 'mcp__srv__weather',
      serverId: 'srv',
      approval: { decision: 'allow-once', by: 'person' },
    });
  });

  it('searches deferred tools, loads the found tool into the next call, then calls it', async () => {
    const { deps, model, calls, tools } = setup(
      [use('tool_search', { query: 'calendar' }), use('mcp__srv__calendar', {}), say('Done.')],
      { deferred: true },
    );
    await runTurn('Book a meeting', deps, new AbortController().signal);
    expect(model.requests[0]?.tools.map((t) => t.name)).toEqual(['tool_search']);
    expect(lastUserText(model.requests[1]!)).toContain('mcp__srv__calendar — The calendar tool');
    expect(model.requests[1]?.tools.map((t) => t.name)).toEqual(['mcp__srv__calendar', 'tool_search']);
    expect(calls.map((c) => c.tool)).toEqual(['mcp__srv__calendar']);
    expect(tools.used).toEqual(['mcp__srv__calendar']);
  });

  it('never runs a tool that is not loaded, not in the thread, or given invalid input; the model is told why', async () => {
    const { deps, calls, model } = setup(
      [use('mcp__srv__calendar', {}), use('mcp__other__delete_all', {}), use('tool_search', 'not json'), say('Sorry.')],
      { deferred: true },
    );
    expect((await runTurn('Do things', deps, new AbortController().signal)).status).toBe('done');
    expect(calls).toEqual([]);
    expect(lastUserText(model.requests[1]!)).toContain('is not loaded in this thread');
    expect(lastUserText(model.requests[2]!)).toContain('There is no tool named mcp__other__delete_all');
    expect(lastUserText(model.requests[3]!)).toContain('is not a JSON object');
  });

  it('runs a denied tool never, and remembers "allow for this thread" and "always allow"', async () => {
    const denied = setup([use('mcp__srv__weather', {}), say('OK.')], { approve: 'deny' });
    await runTurn('x', denied.deps, new AbortController().signal);
    expect(denied.calls).toEqual([]);
    expect(lastUserText(denied.model.requests[1]!)).toContain('The person declined to run weather.');

    const thread = setup([use('mcp__srv__weather', {}), say('OK.')], { approve: 'allow-thread' });
    await runTurn('x', thread.deps, new AbortController().signal);
    expect(Object.keys(thread.store.threadApprovals)).toEqual(['srv/weather']);
    const always = setup([use('mcp__srv__weather', {}), say('OK.')], { approve: 'allow-always' });
    await runTurn('x', always.deps, new AbortController().signal);
    expect(Object.keys(always.store.alwaysApprovals)).toEqual(['srv/weather']);
  });

  it('runs a read-only tool of a trusted server without asking, and records that the annotation allowed it', async () => {
    const { deps, asked, store } = setup([use('mcp__srv__weather', {}), say('OK.')], {
      tools: [agentTool('weather', { annotations: { readOnlyHint: true }, isFromTrustedServer: true })],
    });
    await runTurn('x', deps, new AbortController().signal);
    expect(asked).toEqual([]);
    expect(store.messages[1]?.trace[1]).toMatchObject({ approval: { decision: 'auto-allow', by: 'annotation' } });
  });

  it('runs the tool calls of one answer in parallel', async () => {
    // Each call finishes only once both have started: run one after the other, the first would never return.
    let started = 0;
    let bothStarted!: () => void;
    const isBothStarted = new Promise<void>((resolve) => (bothStarted = resolve));
    const slow: ListToolsOptions['runTool'] = async (tool) => {
      if (++started === 2) bothStarted();
      await isBothStarted;
      return ok(tool.toolName);
    };
    const both: ScriptedAnswer = {
      blocks: [
        { type: 'tool_use', id: 'a', name: 'mcp__srv__weather', input: {} },
        { type: 'tool_use', id: 'b', name: 'mcp__srv__calendar', input: {} },
      ],
    };
    const { deps, store } = setup([both, say('Both done.')], { runTool: slow });
    await runTurn('x', deps, new AbortController().signal);
    expect(started).toBe(2);
    expect(store.messages[2]?.blocks.map((b) => (b.type === 'tool_result' ? b.tool_use_id : ''))).toEqual(['a', 'b']);
  });

  it("shows each call's trace on the answer as it ends, while another call of the batch waits for approval", async () => {
    const both: ScriptedAnswer = {
      blocks: [
        { type: 'tool_use', id: 'a', name: 'mcp__srv__weather', input: {} },
        { type: 'tool_use', id: 'b', name: 'mcp__srv__calendar', input: {} },
      ],
    };
    const { deps, store } = setup([both, say('Both done.')]);
    // The calendar's approval is held until the weather call's trace has reached the page.
    let allowCalendar!: () => void;
    const calendarAllowed = new Promise<void>((resolve) => (allowCalendar = resolve));
    const seenTraces: string[][] = [];
    const asking = listThreadTools([agentTool('weather'), agentTool('calendar')], {
      deferred: false,
      askApproval: async (request) => {
        if (request.tool.modelName === 'mcp__srv__calendar') await calendarAllowed;
        return 'allow-once';
      },
      runTool: async (tool) => ok(`${tool.toolName} says hi`),
      approvals: { always: store.alwaysApprovals, thread: store.threadApprovals },
      memory: store,
      hash: async (text) => `h${text.length}`,
    });
    const turn = runTurn(
      'x',
      {
        ...deps,
        tools: asking,
        onMessage: (message) => {
          if (message.role !== 'assistant') return;
          const ids = message.trace.flatMap((entry) => (entry.kind === 'tool-call' ? [entry.toolUseId] : []));
          seenTraces.push(ids);
          if (ids.includes('a')) allowCalendar();
        },
      },
      new AbortController().signal,
    );
    await turn;
    // The page saw the weather call ended before the calendar call was allowed, then both.
    expect(seenTraces).toContainEqual(['a']);
    expect(seenTraces.at(-1)).toEqual([]); // The last answer ("Both done.") has no calls of its own.
    expect(store.messages[1]?.trace.filter((e) => e.kind === 'tool-call').map((e) => e.toolUseId)).toEqual(['a', 'b']);
  }, 10_000); // Without the live trace the calendar is never allowed: the turn waits, and this fails at the timeout.

  it('stops at the turn limit with a visible note', async () => {
    const loop = Array.from({ length: 3 }, (_, i) => use('mcp__srv__weather', {}, `t${i}`));
    const { deps, store } = setup(loop, { maxModelCalls: 3, approve: 'allow-thread' });
    expect(await runTurn('x', deps, new AbortController().signal)).toEqual({ status: 'limit' });
    expect(store.messages.at(-1)?.error).toContain('Stopped after 3 model calls');
  });

  it('keeps the partial answer, marked interrupted, when the person stops', async () => {
    const controller = new AbortController();
    const { deps, store } = setup([
      {
        blocks: [{ type: 'text', text: 'one two three four five six seven eight' }],
        onChunk: (n) => n === 3 && controller.abort(), // The person stops after three words arrived.
      },
    ]);
    expect(await runTurn('x', deps, controller.signal)).toEqual({ status: 'stopped' });
    const answer = store.messages[1]!;
    expect(answer.status).toBe('interrupted');
    expect((answer.blocks[0] as { text: string }).text.length).toBeGreaterThan(0);
    expect((answer.blocks[0] as { text: string }).text).not.toBe('one two three four five six seven eight');
  });

  it('writes a streaming answer to storage while it streams, about every second', async () => {
    const words = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    let clock = 0; // A word every 100 ms by this clock: 3 s of streaming that take no real time.
    const answer: ScriptedAnswer = {
      blocks: [{ type: 'text', text: words }],
      onChunk: async () => {
        clock += 100;
        await new Promise((resolve) => setImmediate(resolve)); // Lets the writes of this moment run now.
      },
    };
    const { deps, store } = setup([answer], { now: () => clock });
    await runTurn('x', { ...deps, settings: { ...deps.settings, persistEveryMs: 1000 } }, new AbortController().signal);
    // Created, the first words at once, then once a second while it streams, and the final answer.
    expect(store.writes.filter((w) => w.id === 'm1').map((w) => w.at)).toEqual([0, 100, 1100, 2100, 3000]);
  });

  it('writes the words that came before the stream went quiet, without waiting for more', async () => {
    let release = () => {};
    const quiet = new Promise<void>((resolve) => (release = resolve));
    // Three words at once, then nothing until released: a long thought, or pings only.
    const answer: ScriptedAnswer = {
      blocks: [{ type: 'text', text: 'one two three four' }],
      onChunk: (n) => (n === 3 ? quiet : undefined),
    };
    // A clock that stands still: only the trailing write, on the page's timer, can write the later words.
    const { deps, store } = setup([answer], { now: () => 0 });
    const turn = runTurn(
      'x',
      { ...deps, settings: { ...deps.settings, persistEveryMs: 20 } },
      new AbortController().signal,
    );
    // The first word was written at once; the next two within the interval, while nothing more arrives.
    await vi.waitFor(() => expect(store.messages[1]?.blocks).toEqual([{ type: 'text', text: 'one two three ' }]), {
      timeout: 30_000,
    });
    expect(store.messages[1]?.status).toBe('streaming');
    release();
    expect(await turn).toEqual({ status: 'done' });
    expect(store.texts().at(-1)).toBe('one two three four');
  });

  it('shows a clear message for a refused key and leaves the thread usable', async () => {
    const { deps, store } = setup([{ error: new ModelError('auth', undefined, 401) }, say('Back again.')]);
    const outcome = await runTurn('Hi', deps, new AbortController().signal);
    expect(outcome).toEqual({ status: 'error', error: 'The API key was refused (401). Check it in Settings.' });
    expect(store.messages[1]).toMatchObject({
      status: 'error',
      error: 'The API key was refused (401). Check it in Settings.',
    });
    expect((await runTurn('Retry', deps, new AbortController().signal)).status).toBe('done');
    expect(store.texts().at(-1)).toBe('Back again.');
  });

  it('sends the thread again when the API paused its own tool loop (pause_turn), and finishes the answer', async () => {
    const paused: ScriptedAnswer = {
      blocks: [
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'tool_search_tool_bm25', input: { query: 'weather' } },
      ],
      stopReason: 'pause_turn',
    };
    const { deps, model, store } = setup([paused, say('It is sunny.')]);
    expect(await runTurn('Weather?', deps, new AbortController().signal)).toEqual({ status: 'done' });
    expect(model.requests).toHaveLength(2);
    expect(store.texts().at(-1)).toBe('It is sunny.');
  });
});
