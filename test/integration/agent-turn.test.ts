import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/domain/thread-tools';
import type { Approval } from '../../src/domain/trace';
import type { Registry } from '../../src/mcp/registry';
import { sendMessage, type TurnRunnerDeps } from '../../src/turns/turn-runner';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import { startTestApp, type TestApp } from '../fakes/test-app';
import type { TestStorage } from '../fakes/test-storage';
import { startServerEverything } from '../fixtures/server-everything';

let everything: Awaited<ReturnType<typeof startServerEverything>>;
let app: TestApp;
let api: FakeAnthropic;
let opened: TestStorage;
let registry: Registry;
let deps: TurnRunnerDeps;

beforeAll(async () => {
  // Defer always (server-everything has fewer than 30 tools) and preload nothing, so the model must search.
  [everything, app] = await Promise.all([
    startServerEverything({ mode: 'streamableHttp' }),
    startTestApp({ apiKey: 'sk-ant-test-key', toolSearch: { deferral: 'always', preloadCount: 0 } }),
  ]);
  ({ api, opened, registry, deps } = app);
  await registry.register({ id: 'everything', name: 'Everything', url: everything.url }, 'user');
});

afterAll(async () => {
  await app?.close();
  await everything?.stop();
});

describe('a whole agent turn: fake Messages API, real MCP server, real storage', () => {
  it('searches, loads the deferred tool, asks, calls it and streams the final answer, all stored with its trace', async () => {
    const { storage } = opened;
    const thread = await storage.threads.create(deps.profileId, {
      title: 'Echo test',
      enabledServerIds: ['everything'],
      systemPrompt: 'Answer briefly.',
    });
    api.script(
      { toolUses: [{ name: 'tool_search', input: { query: 'echo a message back' } }] },
      (request) =>
        request.toolNames.includes('mcp__everything__echo')
          ? { toolUses: [{ name: 'mcp__everything__echo', input: { message: 'hello from the model' }, chunks: 4 }] }
          : { text: 'The echo tool was not loaded.' },
      { text: ['The server answered: ', 'Echo: hello from the model.'] },
    );
    const asked: ApprovalRequest[] = [];
    const askApproval = async (request: ApprovalRequest): Promise<Approval> => {
      asked.push(request);
      return 'allow-once';
    };
    const outcome = await sendMessage(deps, thread.id, 'Please echo something for me', {
      askApproval,
      signal: new AbortController().signal,
    });
    expect(outcome).toEqual({ status: 'done' });

    // What the API was sent: tool_search alone first, then the found tool; the key; cache breakpoints.
    expect(api.requests[0]?.toolNames).toEqual(['tool_search']);
    expect(api.requests[1]?.toolNames).toContain('mcp__everything__echo');
    expect(api.requests[1]?.toolNames).not.toContain('mcp__everything__get-tiny-image');
    const sentKey = api.requests[0]?.headers['x-api-key'] ?? api.requests[0]?.headers.authorization;
    expect(sentKey).toContain('sk-ant-test-key');
    // The thread's prompt, then server-everything's own instructions under its name (issue #20, item 7).
    expect(api.requests[0]?.body.system).toEqual([
      {
        type: 'text',
        text: expect.stringMatching(
          /^Answer briefly\.\n\n# Instructions from the MCP servers of this thread\n\n[^]*\n\n<server_instructions server="everything" name="Everything">\n\S/,
        ) as string,
        cache_control: { type: 'ephemeral' },
      },
    ]);
    // The system block covers tools and system; the newest block is written for the next call, which reads it.
    expect(api.requests[1]?.body.system).toEqual(api.requests[0]?.body.system);
    expect(JSON.stringify(api.requests[1]?.body.tools)).not.toContain('cache_control');
    expect(JSON.stringify(api.requests[1]?.body.messages.at(-1)?.content)).toContain('"cache_control"');

    // The person was asked once, with the arguments.
    expect(asked.map((a) => [a.tool.modelName, a.arguments])).toEqual([
      ['mcp__everything__echo', { message: 'hello from the model' }],
    ]);

    // Everything is in storage: messages in order, the tool result, the final answer, the trace.
    const { items } = await storage.messages.list(thread.id);
    expect(items.map((m) => `${m.role}:${m.blocks.map((b) => b.type).join(',')}`)).toEqual([
      'user:text',
      'assistant:tool_use',
      'user:tool_result',
      'assistant:tool_use',
      'user:tool_result',
      'assistant:text',
    ]);
    expect(JSON.stringify(items[4]?.blocks)).toContain('Echo: hello from the model');
    expect(items[5]?.blocks).toEqual([{ type: 'text', text: 'The server answered: Echo: hello from the model.' }]);
    const traces = items.flatMap((m) => m.trace);
    expect(traces.find((t) => t.kind === 'tool-search')).toMatchObject({
      query: 'echo a message back',
      picks: expect.arrayContaining([expect.objectContaining({ name: 'mcp__everything__echo' })]) as unknown,
    });
    expect(traces.find((t) => t.kind === 'tool-call')).toMatchObject({
      tool: 'mcp__everything__echo',
      serverId: 'everything',
      isError: false,
      approval: { decision: 'allow-once', by: 'person' },
    });
    expect(traces.filter((t) => t.kind === 'model-call')).toHaveLength(3);
    expect(traces.find((t) => t.kind === 'model-call')).toMatchObject({
      usage: { input: expect.any(Number) as number, output: expect.any(Number) as number },
    });
    expect((await storage.threads.get(thread.id))?.loadedTools.map((t) => t.toolName)).toContain('echo');
  });

  it('a tool of a server not enabled in the thread is never called', async () => {
    const { storage } = opened;
    const thread = await storage.threads.create(deps.profileId, { title: 'No servers', enabledServerIds: [] });
    api.script(
      { toolUses: [{ name: 'mcp__everything__echo', input: { message: 'sneaky' } }] },
      { text: 'Understood.' },
    );
    const asked: string[] = [];
    await sendMessage(deps, thread.id, 'Echo please', {
      askApproval: async (r) => (asked.push(r.tool.modelName), 'allow-once'),
      signal: new AbortController().signal,
    });
    expect(asked).toEqual([]);
    const { items } = await storage.messages.list(thread.id);
    expect(JSON.stringify(items[2]?.blocks)).toContain('of mcp__everything__echo is switched off in this thread.');
  });

  it('a call its tool would refuse (arguments against the schema) is not put to the person; the model gets why', async () => {
    const { storage } = opened;
    const thread = await storage.threads.create(deps.profileId, {
      title: 'Bad args',
      enabledServerIds: ['everything'],
    });
    api.script(
      { toolUses: [{ name: 'tool_search', input: { query: 'add two numbers sum' } }] },
      { toolUses: [{ name: 'mcp__everything__get-sum', input: { a: 'two', b: 3 } }] },
      { text: 'Let me fix that.' },
    );
    const asked: string[] = [];
    await sendMessage(deps, thread.id, 'Add two and three', {
      askApproval: async (r) => (asked.push(r.tool.modelName), 'allow-once'),
      signal: new AbortController().signal,
    });
    expect(asked).toEqual([]);
    const { items } = await storage.messages.list(thread.id);
    const result = JSON.stringify(items[4]?.blocks);
    expect(result).toContain('Invalid arguments for \\"get-sum\\"');
    expect(items.at(-1)?.blocks).toEqual([{ type: 'text', text: 'Let me fix that.' }]);
  });

  it('a server switched off during the turn cannot run its tool any more', async () => {
    const { storage } = opened;
    const thread = await storage.threads.create(deps.profileId, {
      title: 'Switch off',
      enabledServerIds: ['everything'],
    });
    api.script(
      { toolUses: [{ name: 'tool_search', input: { query: 'echo' } }] },
      { toolUses: [{ name: 'mcp__everything__echo', input: { message: 'late' } }] },
      { text: 'OK.' },
    );
    let enabled: string[] = ['everything'];
    const askApproval = async (): Promise<Approval> => {
      enabled = []; // The person switches the server off while the approval is pending, then allows.
      return 'allow-once';
    };
    await sendMessage(deps, thread.id, 'Echo late', {
      askApproval,
      signal: new AbortController().signal,
      enabledServerIds: () => enabled,
    });
    const { items } = await storage.messages.list(thread.id);
    expect(JSON.stringify(items[4]?.blocks)).toContain('was switched off in this thread; the tool was not called');
  });

  it('explains a refused key in the thread, and the thread keeps working', async () => {
    const { storage } = opened;
    const thread = await storage.threads.create(deps.profileId, { title: 'Errors', enabledServerIds: ['everything'] });
    api.script({ error: { status: 401 } }, { text: 'Working again.' });
    const first = await sendMessage(deps, thread.id, 'Hi', {
      askApproval: async () => 'deny',
      signal: new AbortController().signal,
    });
    expect(first).toEqual({ status: 'error', error: 'The API key was refused (401). Check it in Settings.' });
    const second = await sendMessage(deps, thread.id, 'Hi again', {
      askApproval: async () => 'deny',
      signal: new AbortController().signal,
    });
    expect(second.status).toBe('done');
    const { items } = await storage.messages.list(thread.id);
    expect(items.map((m) => m.status)).toEqual(['complete', 'error', 'complete', 'complete']);
  });
});
