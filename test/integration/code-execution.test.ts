// execute_code in a real turn: fake Messages API, a real MCP server on 127.0.0.1, the Node stand-in of the sandbox.
// Inner calls take the turn's one tool path: the thread's servers only, and the same approvals as the model's calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/domain/thread-tools';
import type { Approval } from '../../src/domain/trace';
import type { ServerActions } from '../../src/stores/servers-store';
import { resumeUnansweredCalls, sendMessage, type TurnRunnerDeps } from '../../src/turns/turn-runner';
import { startCalcApp, type CalcApp } from '../fakes/calc-app';
import type { RecordedRequest } from '../fakes/fake-anthropic';
import { openNodeSandbox } from '../fakes/node-code-sandbox';
import type { TestApp } from '../fakes/test-app';
import type { TestMcpServer } from '../fixtures/test-mcp-server';

let calc: CalcApp | undefined;
let server: TestMcpServer;
let app: TestApp;
let deps: TurnRunnerDeps;
let actions: ServerActions;

beforeAll(async () => {
  calc = await startCalcApp();
  ({ server, app, actions } = calc);
  deps = { ...app.deps, openCodeSandbox: openNodeSandbox };
});

afterAll(async () => {
  await calc?.close();
});

const toolCalls = () => server.requests.filter((r) => r.rpcMethod === 'tools/call').length;
const lastToolResult = (request: RecordedRequest | undefined) => JSON.stringify(request?.body.messages.at(-1));

async function turnWithCode(code: string, answer: (request: ApprovalRequest, enabled: string[]) => Approval) {
  const thread = await app.opened.storage.threads.create(app.profile.id, { title: 'Code', enabledServerIds: ['calc'] });
  const enabled = ['calc'];
  const asked: ApprovalRequest[] = [];
  app.api.script({ toolUses: [{ name: 'execute_code', input: { code } }] }, { text: 'Done.' });
  const outcome = await sendMessage(deps, thread.id, 'Use code.', {
    askApproval: async (request) => {
      asked.push(request);
      return answer(request, enabled);
    },
    enabledServerIds: () => enabled,
    signal: new AbortController().signal,
  });
  return { outcome, asked, thread };
}

describe('execute_code in a turn', () => {
  it('is offered beside the thread tools, and only the returned value goes back to the model', async () => {
    const before = toolCalls();
    const { outcome, asked } = await turnWithCode(
      `const a = await tools.mcp__calc__add({ a: 2, b: 3 });
       const b = await tools.mcp__calc__add({ a: 10, b: 20 });
       console.log('two sums');
       return { sums: [a, b].map((s) => s.split('=')[1]) };`,
      () => 'allow-thread',
    );
    expect(outcome).toEqual({ status: 'done' });
    const [first, second] = app.api.requests.slice(-2);
    expect(first?.toolNames).toEqual(expect.arrayContaining(['mcp__calc__add', 'execute_code']));
    // "Allow for this thread" at the first inner call covers the second.
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      caller: { kind: 'code' },
      arguments: { a: 2, b: 3 },
      tool: { modelName: 'mcp__calc__add' },
    });
    expect(toolCalls() - before).toBe(2);
    const result = lastToolResult(second);
    expect(result).toContain('{\\"sums\\":[\\"5\\",\\"30\\"]}');
    expect(result).toContain('two sums');
    expect(result).not.toContain('2+3=5'); // The inner results themselves never enter the context.
  });

  it('rejects a denied inner call inside the code with "denied", and the tool never runs', async () => {
    const before = toolCalls();
    await turnWithCode(
      `try { await tools.mcp__calc__add({ a: 1, b: 1 }); return 'ran'; } catch (e) { return 'caught: ' + e.message; }`,
      () => 'deny',
    );
    expect(toolCalls()).toBe(before);
    expect(lastToolResult(app.api.requests.at(-1))).toMatch(
      /caught: Denied: the person declined to run add; it was not called/,
    );
  });

  it('refuses an inner call to a server switched off in the thread while the call waited for approval', async () => {
    const before = toolCalls();
    await turnWithCode(
      `try { await tools.mcp__calc__add({ a: 1, b: 1 }); return 'ran'; } catch (e) { return 'caught: ' + e.message; }`,
      (_request, enabled) => {
        enabled.length = 0; // The person switches the server off in this thread, then allows the call.
        return 'allow-once';
      },
    );
    expect(toolCalls()).toBe(before);
    expect(lastToolResult(app.api.requests.at(-1))).toMatch(
      /caught: The server of add was switched off in this thread/,
    );
  });

  it('turns a syntax error, a wrong tool name and a throw into error results with the line, and the turn goes on', async () => {
    const cases = [
      { code: 'const x = 1;\nreturn x +;', expected: /SyntaxError at line 2.*is_error":true/ },
      { code: 'await tools.mcp__calc__nope({});', expected: /There is no tool named mcp__calc__nope in this thread/ },
      { code: '\n\nthrow new Error("boom");', expected: /Error at line 3: boom/ },
    ];
    for (const { code, expected } of cases) {
      const { outcome } = await turnWithCode(code, () => 'allow-once');
      expect(outcome).toEqual({ status: 'done' });
      expect(lastToolResult(app.api.requests.at(-1))).toMatch(expected);
    }
  });

  it('traces tools.tool_search called from code like the model’s own search, marked as called from code', async () => {
    const { outcome, thread } = await turnWithCode(
      `const found = await tools.tool_search({ query: 'add numbers' }); return found.map((t) => t.name);`,
      () => 'allow-once',
    );
    expect(outcome).toEqual({ status: 'done' });
    expect(lastToolResult(app.api.requests.at(-1))).toContain('mcp__calc__add');
    const traces = (await app.opened.storage.messages.list(thread.id)).items.flatMap((m) => m.trace);
    const search = traces.find((t) => t.kind === 'tool-search');
    const code = traces.find((t) => t.kind === 'code-execution');
    expect(search).toMatchObject({ query: 'add numbers', caller: { kind: 'code' } });
    expect(search?.kind === 'tool-search' && search.picks.map((p) => p.name)).toContain('mcp__calc__add');
    expect(search?.kind === 'tool-search' && search.caller?.parentToolUseId).toBe(
      code?.kind === 'code-execution' && code.toolUseId,
    );
  });

  it('refuses, inside the code, a tool whose "from code" setting is off; the model can still call it itself', async () => {
    expect(await actions.changeTool('calc', 'add', { callableFromCode: false })).toBeUndefined();
    const before = toolCalls();
    await turnWithCode(
      `try { await tools.mcp__calc__add({ a: 1, b: 1 }); return 'ran'; } catch (e) { return 'caught: ' + e.message; }`,
      () => 'allow-once',
    );
    expect(toolCalls()).toBe(before);
    expect(lastToolResult(app.api.requests.at(-1))).toMatch(/caught: mcp__calc__add may not be called from code/);
    expect(app.api.requests.at(-1)?.toolNames).toContain('mcp__calc__add');
    expect(await actions.changeTool('calc', 'add', { callableFromCode: true })).toBeUndefined();
  });

  it('a turn cut off while a call from code waited (a reload) runs the code again, asking about its calls again', async () => {
    const { storage } = app.opened;
    const thread = await storage.threads.create(app.profile.id, { title: 'Cut off', enabledServerIds: ['calc'] });
    await storage.messages.append(thread.id, {
      role: 'user',
      blocks: [{ type: 'text', text: 'Use code.' }],
      status: 'complete',
    });
    const code = `const s = await tools.mcp__calc__add({ a: 4, b: 5 }); return 'sum ' + s.split('=')[1];`;
    await storage.messages.append(thread.id, {
      role: 'assistant',
      blocks: [{ type: 'tool_use', id: 'tu-code', name: 'execute_code', input: { code } }],
      status: 'complete',
      trace: [
        {
          kind: 'model-call',
          model: 'm',
          toolNames: ['execute_code'],
          toolTokens: 1,
          durationMs: 1,
          stopReason: 'tool_use',
        },
      ],
    });
    const before = toolCalls();
    const asked: ApprovalRequest[] = [];
    app.api.script({ text: 'The sum is 9.' });
    const outcome = await resumeUnansweredCalls(deps, thread.id, {
      askApproval: async (request) => {
        asked.push(request);
        return 'allow-once';
      },
      enabledServerIds: () => ['calc'],
      signal: new AbortController().signal,
    });
    expect(outcome).toEqual({ status: 'done' });
    expect(asked.map((a) => [a.tool.modelName, a.caller?.kind])).toEqual([['mcp__calc__add', 'code']]);
    expect(toolCalls() - before).toBe(1);
    const result = lastToolResult(app.api.requests.at(-1));
    expect(result).toContain('sum 9');
    expect(result).not.toContain('There is no tool named execute_code');
  });
});
