// Anthropic's programmatic tool calling in a real turn (issue #18 item 3): the official SDK against the contract fake
// of the Messages API, a real MCP server on 127.0.0.1. The API's code execution calls the thread's tools; each call
// takes the turn's one tool path (approvals as the model's own), the container is carried across the turn's calls,
// and the message answering the code's calls holds tool_result blocks only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAppContext } from '../../src/domain/app-context';
import type { ApprovalRequest } from '../../src/domain/thread-tools';
import type { ThreadConfig } from '../../src/domain/thread-config';
import type { Approval } from '../../src/domain/trace';
import { sendMessage, type TurnRunnerDeps } from '../../src/turns/turn-runner';
import { startCalcApp, type CalcApp } from '../fakes/calc-app';
import type { RecordedRequest, ScriptedTurn } from '../fakes/fake-anthropic';
import type { TestApp } from '../fakes/test-app';
import type { TestMcpServer } from '../fixtures/test-mcp-server';

let calc: CalcApp | undefined;
let server: TestMcpServer;
let app: TestApp;
let deps: TurnRunnerDeps;

beforeAll(async () => {
  calc = await startCalcApp();
  ({ server, app } = calc);
  deps = app.deps;
});

afterAll(async () => {
  await calc?.close();
});

const toolCalls = () => server.requests.filter((r) => r.rpcMethod === 'tools/call').length;
const blocksOf = (request: RecordedRequest | undefined, at: number) =>
  (request?.body.messages.at(at)?.content ?? []) as unknown as { type: string; [key: string]: unknown }[];

async function turn(
  turns: ScriptedTurn[],
  answer: (request: ApprovalRequest) => Approval,
  settings: Partial<Pick<ThreadConfig, 'appContexts' | 'systemPrompt'>> = {},
) {
  const created = await app.opened.storage.threads.create(app.profile.id, {
    title: 'Anthropic code',
    enabledServerIds: ['calc'],
  });
  const thread = await app.opened.storage.threads.update(created.id, () => ({
    codeExecution: 'anthropic',
    ...settings,
  }));
  const asked: ApprovalRequest[] = [];
  const first = app.api.requests.length;
  app.api.script(...turns);
  const outcome = await sendMessage(deps, thread.id, 'Add with code.', {
    askApproval: async (request) => (asked.push(request), answer(request)),
    signal: new AbortController().signal,
  });
  const messages = (await app.opened.storage.messages.list(thread.id)).items;
  return { outcome, asked, requests: app.api.requests.slice(first), messages };
}

describe("Anthropic's programmatic tool calling", () => {
  it('offers the code execution tool, runs the code’s calls with approval and carries the container', async () => {
    const before = toolCalls();
    const { outcome, asked, requests, messages } = await turn(
      [
        { code: { source: 'print(add(2, 3))', calls: [{ name: 'mcp__calc__add', input: { a: 2, b: 3 } }] } },
        { code: { calls: [{ name: 'mcp__calc__add', input: { a: 10, b: 20 } }] } },
        (request) => ({
          code: {
            stdout: `sums seen: ${JSON.stringify(request.body.messages.at(-1)).includes('30') ? 'yes' : 'no'}\n`,
          },
          text: 'The sums are 5 and 30.',
        }),
      ],
      () => 'allow-thread',
    );
    expect(outcome).toEqual({ status: 'done' });
    expect(requests).toHaveLength(3);
    // The request side: the code execution tool, and the thread's tools callable by the model and by the code.
    const tools = requests[0]!.body.tools as unknown as Record<string, unknown>[];
    expect(tools).toContainEqual(expect.objectContaining({ type: 'code_execution_20260120', name: 'code_execution' }));
    expect(tools.find((t) => t.name === 'mcp__calc__add')?.allowed_callers).toEqual([
      'direct',
      'code_execution_20260120',
    ]);
    expect(requests[0]!.toolNames).not.toContain('execute_code');
    expect(requests[0]!.headers['anthropic-beta']).toBeUndefined();
    // The container of the first answer goes with every later call of the turn.
    expect(requests[0]!.body.container).toBeUndefined();
    expect(requests[1]!.body.container).toBe('container_fake_0001');
    expect(requests[2]!.body.container).toBe('container_fake_0001');
    // The answers to the code's calls: tool_result blocks only, text only, and the tool really ran.
    expect(blocksOf(requests[1], -1)).toEqual([
      expect.objectContaining({ type: 'tool_result', content: [{ type: 'text', text: '2+3=5' }] }),
    ]);
    expect(blocksOf(requests[1], -1)[0]).not.toHaveProperty('is_error');
    expect(toolCalls() - before).toBe(2);
    // Their tool_use blocks went back with their caller, the code's server_tool_use with them.
    const asking = blocksOf(requests[1], -2);
    expect(asking.map((b) => b.type)).toEqual(['server_tool_use', 'tool_use']);
    expect(asking[1]!.caller).toEqual({ type: 'code_execution_20260120', tool_id: asking[0]!.id });
    // One approval, "called from code", covered the second call ("allow for this thread").
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ caller: { kind: 'code', parentToolUseId: asking[0]!.id } });
    // The stored trace: both inner calls under the code, and how the code ended.
    const traces = messages.flatMap((m) => m.trace);
    const inner = traces.filter((t) => t.kind === 'tool-call' && t.caller?.parentToolUseId === asking[0]!.id);
    expect(inner).toHaveLength(2);
    expect(traces.find((t) => t.kind === 'code-execution')).toMatchObject({
      runner: 'anthropic',
      toolUseId: asking[0]!.id,
      status: 'returned',
      calls: 2,
      logs: ['sums seen: yes'],
    });
    expect(messages.at(-1)?.blocks.map((b) => b.type)).toEqual(['code_execution_tool_result', 'text']);
  });

  it("an app's context reaches every call of the turn, never beside the results of the code's calls", async () => {
    const said = 'The calculator app shows 7 in its display.';
    const { outcome, requests } = await turn(
      [
        { code: { source: 'print(add(2, 3))', calls: [{ name: 'mcp__calc__add', input: { a: 2, b: 3 } }] } },
        { code: { stdout: '5\n' }, text: 'The sum is 5.' },
      ],
      () => 'allow-once',
      {
        // What an MCP App of the server told the model (ui/update-model-context), as the page stores it; the thread's
        // long instructions make the prefix long enough to be cached (1,024 tokens at least).
        appContexts: withAppContext(undefined, 'toolu_app', 'calc', said),
        systemPrompt: 'Use the calculator for every sum, and say which numbers you added. '.repeat(80),
      },
    );
    // The contract fake accepts each request (it refuses text beside the results of the code's calls).
    expect(outcome).toEqual({ status: 'done' });
    expect(requests).toHaveLength(2);
    for (const request of requests) expect(JSON.stringify(request.body.messages)).toContain(said);
    expect(blocksOf(requests[1], -1).map((b) => b.type)).toEqual(['tool_result']);
    // It stays where the first call had it (after the person's message), so the second call reads that from the cache.
    expect(JSON.stringify(blocksOf(requests[1], -3))).toContain(said);
    expect(requests[0]!.usage!.cache_creation_input_tokens).toBeGreaterThan(1_024);
    expect(requests[1]!.usage?.cache_read_input_tokens).toBe(
      requests[0]!.usage!.cache_read_input_tokens + requests[0]!.usage!.cache_creation_input_tokens,
    );
  });

  it('a denied call fails inside the code with "Denied", and the turn goes on', async () => {
    const before = toolCalls();
    const { outcome, requests } = await turn(
      [
        { code: { source: 'add(1, 1)', calls: [{ name: 'mcp__calc__add', input: { a: 1, b: 1 } }] } },
        { code: { stderr: 'ToolError: Denied', returnCode: 1 }, text: 'The person declined.' },
      ],
      () => 'deny',
    );
    expect(outcome).toEqual({ status: 'done' });
    expect(toolCalls()).toBe(before);
    const [denied, ...rest] = blocksOf(requests[1], -1);
    expect(rest).toEqual([]);
    expect(denied).toMatchObject({ type: 'tool_result', is_error: true });
    expect(JSON.stringify(denied?.content)).toMatch(/^\[\{"type":"text","text":"Denied/);
  });
});

describe('the tiers of the Code setting in a turn', () => {
  it("a turn's own choice wins over the thread's, the thread's over the profile's", async () => {
    const thread = await app.opened.storage.threads.create(app.profile.id, {
      title: 'Tiers',
      enabledServerIds: ['calc'],
    });
    await app.opened.storage.profiles.update(app.profile.id, (p) => ({
      ...p,
      preferences: { ...p.preferences, codeExecution: 'anthropic' },
    }));
    await app.opened.storage.threads.update(thread.id, () => ({ codeExecution: 'off' }));
    const options = { askApproval: () => Promise.resolve('allow-once' as const), signal: new AbortController().signal };
    app.api.script({ text: 'Thread says off.' }, { text: 'The turn says Anthropic.' });
    await sendMessage(deps, thread.id, 'First', options);
    expect(app.api.requests.at(-1)?.toolNames).not.toContain('code_execution');
    await sendMessage(deps, thread.id, 'Second', { ...options, codeExecution: 'anthropic' });
    expect(app.api.requests.at(-1)?.toolNames).toContain('code_execution');
    await app.opened.storage.threads.update(thread.id, () => ({ codeExecution: undefined }));
    app.api.script({ text: 'The profile says Anthropic.' });
    await sendMessage(deps, thread.id, 'Third', options);
    expect(app.api.requests.at(-1)?.toolNames).toContain('code_execution');
    await app.opened.storage.profiles.update(app.profile.id, (p) => ({
      ...p,
      preferences: { ...p.preferences, codeExecution: undefined },
    }));
  });
});

describe('the contract fake refuses what the API refuses', () => {
  const post = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    fetch(`${app.api.url}/v1/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': 'sk-ant-test-key',
        'anthropic-version': '2023-06-01',
        ...headers,
      },
      body: JSON.stringify({ model: 'claude-sonnet-5', max_tokens: 100, ...body }),
    }).then(async (r) => ({
      status: r.status,
      message: ((await r.json()) as { error?: { message?: string } }).error?.message ?? '',
    }));
  /** A 400 whose message contains `part` (as the real API answers a request it refuses). */
  const refused = (part: string) => ({ status: 400, message: expect.stringContaining(part) as unknown as string });
  const tool = { name: 'add', description: 'Adds', input_schema: { type: 'object' } };
  const user = [{ role: 'user', content: 'Hi' }];

  it('allowed_callers without the code execution tool, an unknown version, and the old version without its beta', async () => {
    expect(await post({ messages: user, tools: [{ ...tool, allowed_callers: ['code_execution_20260120'] }] })).toEqual(
      refused("requires the code execution tool of type 'code_execution_20260120'"),
    );
    expect(
      await post({ messages: user, tools: [{ type: 'code_execution_20990101', name: 'code_execution' }] }),
    ).toEqual(refused('does not match any of the expected tags'));
    const old = [
      { type: 'code_execution_20250825', name: 'code_execution' },
      { ...tool, allowed_callers: ['code_execution_20250825'] },
    ];
    expect(await post({ messages: user, tools: old })).toEqual(refused('advanced-tool-use-2025-11-20'));
  });

  it('pending calls of the code: the container is required and must match, and the answer holds tool_result blocks only', async () => {
    const tools = [
      { type: 'code_execution_20260120', name: 'code_execution' },
      { ...tool, allowed_callers: ['code_execution_20260120'] },
    ];
    app.api.script({ code: { source: 'add()', calls: [{ name: 'add', input: {} }] } });
    const started = await fetch(`${app.api.url}/v1/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': 'sk-ant-test-key',
        'anthropic-version': '2023-06-01',
      },
      body: JSON.stringify({ model: 'claude-sonnet-5', max_tokens: 100, messages: user, tools }),
    }).then((r) => r.json() as Promise<{ content: Record<string, unknown>[]; container: { id: string } }>);
    const use = started.content.find((b) => b.type === 'tool_use')!;
    const history = (answer: unknown[]) => [
      ...user,
      { role: 'assistant', content: started.content },
      { role: 'user', content: answer },
    ];
    const result = { type: 'tool_result', tool_use_id: use.id, content: '3' };
    expect(await post({ messages: history([result]), tools })).toMatchObject({
      status: 400,
      message: 'container_id is required when there are pending tool uses generated by code execution with tools.',
    });
    expect(await post({ messages: history([result]), tools, container: 'container_other' })).toEqual(
      refused('is not the container of the pending tool uses'),
    );
    expect(
      await post({
        messages: history([result, { type: 'text', text: 'and then?' }]),
        tools,
        container: started.container.id,
      }),
    ).toEqual(refused('only `tool_result` blocks'));
    // A call whose caller names no code execution in the history (its server_tool_use left out) is refused.
    const withoutCode = started.content.filter((b) => b.type !== 'server_tool_use');
    expect(
      await post({
        messages: [...user, { role: 'assistant', content: withoutCode }, { role: 'user', content: [result] }],
        tools,
        container: started.container.id,
      }),
    ).toEqual(refused('names no code execution `server_tool_use` before it'));
  });
});
