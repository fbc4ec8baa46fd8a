// An elicitation whose schema is outside the spec's subset (trial 13): the app's own check decides, so the server gets
// `decline` (not the SDK's zod dump as -32603) and the chat's note says why. A real SDK-built server on 127.0.0.1
// sends the requests from its tools; the registry and the server-requests store are the app's own.
import { ElicitResultSchema, EmptyResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackServerCalls, type TrackedCalls } from '../../src/stores/server-calls';
import { createServerRequests, type PendingElicitation, type ServerRequests } from '../../src/stores/server-requests';
import { createTestRegistry } from '../fakes/test-registry';
import { startTestMcpServer, type TestMcpServer, type ToolEntry } from '../fixtures/test-mcp-server';

/** A tool that sends `request` to the client and returns what came back: the answer, or the error's code and message. */
function asking(name: string, request: { method: string; params?: Record<string, unknown> }): ToolEntry {
  return {
    tool: { name, inputSchema: { type: 'object' } },
    run: async (_args, _signal, extra) => {
      try {
        const schema = request.method === 'elicitation/create' ? ElicitResultSchema : EmptyResultSchema;
        const answer = await extra.sendRequest(request as never, schema);
        return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
      } catch (error) {
        const code = error instanceof McpError ? error.code : undefined;
        return { content: [{ type: 'text', text: JSON.stringify({ code, message: String(error).slice(0, 2000) }) }] };
      }
    },
  };
}

const NESTED = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    address: { type: 'object', properties: { street: { type: 'string' } } },
  },
};

let server: TestMcpServer;
let requests: ServerRequests;
let registry: ReturnType<typeof createTestRegistry>['registry'];
let calls: TrackedCalls;
/** A call of thread T's turn, as the thread's tool path says. */
const ofT = { from: { threadId: 'T', isApp: false } };

beforeAll(async () => {
  server = await startTestMcpServer({
    extraTools: [
      asking('nested-form', { method: 'elicitation/create', params: { message: 'Where?', requestedSchema: NESTED } }),
      asking('plain-form', {
        method: 'elicitation/create',
        params: { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
      }),
      asking('roots', { method: 'roots/list' }),
    ],
  });
  // As the app does: a question belongs to the thread whose call of the server is running (here one thread, T).
  requests = createServerRequests(
    () => crypto.randomUUID(),
    (id) => (calls.isTurnCalling(id, 'T') ? { threadId: 'T', isTurn: true } : undefined),
    // The app's notes go into the registry's log of the server (the registry is made just below, as in the app).
    { notes: { note: (...args) => registry.note(...args) } },
  );
  ({ registry } = createTestRegistry({ elicitation: requests.elicitation }));
  calls = trackServerCalls(registry);
  await registry.register({ id: 'forms', name: 'Forms', url: server.url }, 'user');
});

afterAll(async () => {
  await registry?.close();
  await server?.stop();
});

const answerOf = (result: Awaited<ReturnType<typeof registry.callTool>>) =>
  JSON.parse(result.content.map((c) => (c.type === 'text' ? c.text : '')).join('')) as Record<string, unknown>;

describe('elicitation outside the spec', () => {
  it('declines a form with a nested object at once, and the chat says why', async () => {
    const result = await calls.registry.callTool('forms', 'nested-form', {}, ofT);
    expect(answerOf(result)).toEqual({ action: 'decline' });
    expect(requests.store.getState().elicitations).toEqual([]);
    expect(requests.store.getState().refused.map((r) => [r.serverName, r.reason])).toEqual([
      ['Forms', 'the field "address" has the type "object", which the spec does not allow'],
    ]);
  });

  it('still shows a form inside the subset to the person, and sends their answer', async () => {
    const called = calls.registry.callTool('forms', 'plain-form', {}, ofT);
    const pending = await new Promise<PendingElicitation>((resolve) => {
      const check = () => {
        const first = requests.store.getState().elicitations[0];
        if (first) resolve(first);
      };
      requests.store.subscribe(check);
      check();
    });
    expect(pending.fields?.map((f) => f.name)).toEqual(['name']);
    expect(pending.threadId).toBe('T');
    pending.answer({ action: 'accept', content: { name: 'Ana' } });
    expect(answerOf(await called)).toEqual({ action: 'accept', content: { name: 'Ana' } });
  });

  it('declines a form that comes while no call of the app to the server runs, shows it nowhere, and logs it', async () => {
    const result = await registry.callTool('forms', 'plain-form', {}); // Not a call of any thread of the app.
    expect(answerOf(result)).toEqual({ action: 'decline' });
    expect(requests.store.getState().elicitations).toEqual([]);
    expect(registry.logs('forms').at(-1)?.text).toContain('Declined its request for input ("Name?")');
  });

  it('answers another request the client does not offer with method not found', async () => {
    expect(answerOf(await calls.registry.callTool('forms', 'roots', {}, ofT))).toMatchObject({ code: -32601 });
  });
});
