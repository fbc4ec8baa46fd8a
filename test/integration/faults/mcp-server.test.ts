// Fault matrix, MCP servers: what the person sees (server status, the tool card's result) and what stays stored.
import { describe, expect, it } from 'vitest';
import { sendMessage } from '../../../src/turns/turn-runner';
import { BEARER_SLOT } from '../../../src/domain/server-config';
import { startBrokenServer } from '../../fixtures/broken-servers';
import { startFaultMcpServer } from '../../fixtures/fault-mcp-server';
import { startServerEverything } from '../../fixtures/server-everything';
import { startTestMcpServer } from '../../fixtures/test-mcp-server';
import { faultAppsPerTest, storedMessages, type FaultApp } from './turn-harness';

const { app, own } = faultAppsPerTest();
const allow = () => ({ askApproval: async () => 'allow-once' as const, signal: new AbortController().signal });

/** Adds the server as `id`, connects it, and creates a thread titled `title` with only it enabled. */
async function threadWithServer(faults: FaultApp, id: string, url: string, title: string) {
  await faults.addServer(id, url);
  await faults.registry.connect(id);
  return faults.opened.storage.threads.create(faults.profileId, { title, enabledServerIds: [id] });
}

/** The text of the tool_result blocks stored in a thread. */
async function toolResults(faults: FaultApp, threadId: string): Promise<string[]> {
  const { items } = await faults.opened.storage.messages.list(threadId);
  return items.flatMap((m) =>
    m.blocks.flatMap((b) =>
      b.type === 'tool_result' ? [b.content.map((c) => (c.type === 'text' ? c.text : '')).join('')] : [],
    ),
  );
}

/** The tool-call trace entries stored in a thread. */
async function toolTraces(faults: FaultApp, threadId: string) {
  const { items } = await faults.opened.storage.messages.list(threadId);
  return items.flatMap((m) => m.trace.filter((entry) => entry.kind === 'tool-call'));
}

describe('MCP server faults', () => {
  it('a server that never answers the connect: an error status saying so, and the stored server stays', async () => {
    const hang = await own(startBrokenServer('hang'));
    const faults = await app({ timing: { connectMs: 1000 } });
    await faults.addServer('silent', hang.url);
    const state = await faults.registry.connect('silent');
    expect(state.status).toBe('error');
    expect(state.lastError?.message).toBe('The server did not finish connecting within 1 s.');
    expect((await faults.opened.storage.profiles.listServers(faults.profileId)).items.map((s) => s.id)).toEqual([
      'silent',
    ]);
  });

  it('a server killed during a call: the card says the connection was lost, the turn ends, the thread is intact; restarted, it works again', async () => {
    const first = await own(startServerEverything({ mode: 'streamableHttp' }));
    const faults = await app({ timing: { reconnect: { initialMs: 200, maxMs: 1000, attempts: 30 } } });
    const thread = await threadWithServer(faults, 'everything', first.url, 'Killed');
    faults.api.script(
      { toolUses: [{ name: 'mcp__everything__trigger-long-running-operation', input: { duration: 10, steps: 10 } }] },
      { text: 'The server went away.' },
    );
    const killDuringCall = async () => {
      setTimeout(() => void first.stop(), 500); // The call starts right after the approval.
      return 'allow-once' as const;
    };
    expect(
      await sendMessage(faults.deps, thread.id, 'Run the long operation', {
        askApproval: killDuringCall,
        signal: new AbortController().signal,
      }),
    ).toEqual({ status: 'done' });
    const [result] = await toolResults(faults, thread.id);
    expect(result).toMatch(
      /^The connection to the server was lost during the call\. http:\/\/127\.0\.0\.1:\d+ does not answer\.$/,
    );
    expect(faults.registry.get('everything')?.state.status).toBe('error');
    expect(faults.registry.tools(['everything']).length).toBeGreaterThan(0); // The last catalog stays.

    // Called while it is down, the tool is not called at all, and the result says so (not "lost during the call").
    faults.api.script(
      { toolUses: [{ name: 'mcp__everything__echo', input: { message: 'down' } }] },
      { text: 'Still down.' },
    );
    expect(await sendMessage(faults.deps, thread.id, 'Echo while it is down', allow())).toEqual({ status: 'done' });
    const down = (await toolResults(faults, thread.id)).at(-1);
    expect(down).toMatch(
      /^The server could not be reached, so the tool was not called\. http:\/\/127\.0\.0\.1:\d+ does not answer\.$/,
    );
    // Its status still says the app goes on trying (the call's own connect did not take that away).
    expect(faults.registry.get('everything')?.state.lastError?.message).toContain(
      'The app will keep trying to reconnect.',
    );

    await own(startServerEverything({ mode: 'streamableHttp', port: first.port }));
    await expect.poll(() => faults.registry.get('everything')?.state.status, { timeout: 15_000 }).toBe('connected');
    faults.api.script(
      { toolUses: [{ name: 'mcp__everything__echo', input: { message: 'back' } }] },
      { text: 'It is back.' },
    );
    expect(await sendMessage(faults.deps, thread.id, 'Try again', allow())).toEqual({ status: 'done' });
    expect((await toolResults(faults, thread.id)).at(-1)).toBe('Echo: back');
    expect((await storedMessages(faults, thread.id)).map((m) => m.text)).toEqual([
      'Run the long operation',
      '[tool_use]',
      result,
      'The server went away.',
      'Echo while it is down',
      '[tool_use]',
      down,
      'Still down.',
      'Try again',
      '[tool_use]',
      'Echo: back',
      'It is back.',
    ]);
  });

  it('a server the app stopped reconnecting to is tried again when a turn starts: down, the turn goes on; restarted, the model gets its tools as they are now', async () => {
    const first = await own(startTestMcpServer());
    const faults = await app({ timing: { reconnect: { initialMs: 20, maxMs: 40, attempts: 1 } } });
    const thread = await threadWithServer(faults, 'calc', first.url, 'Restarted');
    await expect.poll(() => first.openStreams).toBeGreaterThan(0);
    await first.stop();
    const lastError = () => faults.registry.get('calc')?.state.lastError?.message;
    await expect.poll(lastError, { timeout: 15_000 }).toContain('stopped trying to reconnect');

    const statuses: string[] = [];
    faults.registry.subscribe((e) => e.type === 'status' && e.serverId === 'calc' && statuses.push(e.state.status));
    faults.api.script({ text: 'It is down.' });
    expect(await sendMessage(faults.deps, thread.id, 'Still down?', allow())).toEqual({ status: 'done' });
    expect(statuses).toEqual(['connecting', 'error']); // Tried once more, and the turn went on without it.
    expect(faults.registry.get('calc')?.state.status).toBe('error');
    expect(lastError()).toContain('stopped trying to reconnect'); // So the next turn tries again.

    await own(
      startTestMcpServer({
        port: first.port,
        extraTools: [
          {
            tool: { name: 'fresh', inputSchema: { type: 'object' } },
            run: async () => ({ content: [{ type: 'text', text: 'fresh ok' }] }),
          },
        ],
      }),
    );
    faults.api.script({ text: 'It is back.' });
    expect(await sendMessage(faults.deps, thread.id, 'Back?', allow())).toEqual({ status: 'done' });
    expect(faults.api.requests.at(-1)?.toolNames).toContain('mcp__calc__fresh');
    expect(faults.registry.get('calc')?.state.status).toBe('connected');
  });

  it('a tool name the thread does not know, of a server whose tools changed without saying so: the model is told its list may have changed, and the list is read again', async () => {
    const server = await own(startTestMcpServer());
    const faults = await app();
    const thread = await threadWithServer(faults, 'calc', server.url, 'Changed');
    server.addTool('fresh', 'Added without list_changed', { silently: true });
    faults.api.script({ toolUses: [{ name: 'mcp__calc__fresh', input: {} }] }, { text: 'Let me look again.' });
    expect(await sendMessage(faults.deps, thread.id, 'Use the fresh tool', allow())).toEqual({ status: 'done' });
    expect((await toolResults(faults, thread.id)).at(-1)).toBe(
      'There is no tool named mcp__calc__fresh in this thread; the tool list of its server "calc" may have changed since you saw it: look for the tool again among the tools offered now, or search for it. It was not called.',
    );
    // The model's next call in the turn is offered the server's tools as they are now.
    expect(faults.api.requests.at(-1)?.toolNames).toContain('mcp__calc__fresh');
  });

  it('a tool call that hangs times out: the card shows why, the model is told, the thread goes on', async () => {
    const server = await own(startTestMcpServer());
    const faults = await app({ timing: { callTimeoutMs: 1000 } });
    const thread = await threadWithServer(faults, 'slow', server.url, 'Hang');
    faults.api.script(
      { toolUses: [{ name: 'mcp__slow__slow', input: { ms: 30_000 } }] },
      { text: 'The tool timed out.' },
    );
    expect(await sendMessage(faults.deps, thread.id, 'Run the slow tool', allow())).toEqual({ status: 'done' });
    expect(await toolResults(faults, thread.id)).toEqual([
      'The tool did not answer within 1 s; the call was cancelled.',
    ]);
    expect((await storedMessages(faults, thread.id)).map((m) => `${m.role}:${m.status}`)).toEqual([
      'user:complete',
      'assistant:complete',
      'user:complete',
      'assistant:complete',
    ]);
    await expect.poll(() => server.cancelled).toBe(1); // The server was told to stop.
    // A timeout is a failure of the call, not the person's Stop: its card says "failed".
    expect(await toolTraces(faults, thread.id)).toEqual([
      expect.objectContaining({ isError: true, error: 'The tool did not answer within 1 s; the call was cancelled.' }),
    ]);
    expect((await toolTraces(faults, thread.id))[0]).not.toHaveProperty('isStopped');
  });

  it('a call the person stops is recorded as stopped, not as a failure of the tool', async () => {
    const server = await own(startTestMcpServer());
    const faults = await app();
    await faults.addServer('slow', server.url);
    await faults.registry.connect('slow');
    const thread = await faults.opened.storage.threads.create(faults.profileId, {
      title: 'Stop',
      enabledServerIds: ['slow'],
    });
    faults.api.script({ toolUses: [{ name: 'mcp__slow__slow', input: { ms: 600_000 } }] });
    const stop = new AbortController();
    const sent = sendMessage(faults.deps, thread.id, 'Run the slow tool', {
      askApproval: async () => 'allow-once' as const,
      signal: stop.signal,
    });
    await expect.poll(() => server.slowCallsStarted, { timeout: 30_000 }).toBe(1);
    stop.abort();
    expect(await sent).toMatchObject({ status: 'stopped' });
    await expect.poll(() => server.cancelled).toBe(1);
    expect(await toolTraces(faults, thread.id)).toEqual([
      expect.objectContaining({ isStopped: true, error: 'The tool call was cancelled.' }),
    ]);
  });

  it('a 10 MB result is cut to the cap with a note, for the model and in storage', async () => {
    const server = await own(startFaultMcpServer());
    const faults = await app();
    const thread = await threadWithServer(faults, 'big', server.url, 'Big');
    faults.api.script(
      { toolUses: [{ name: 'mcp__big__big-result', input: { megabytes: 10 } }] },
      { text: 'That was a lot.' },
    );
    expect(await sendMessage(faults.deps, thread.id, 'Give me 10 MB', allow())).toEqual({ status: 'done' });
    const [result] = await toolResults(faults, thread.id);
    expect(result?.startsWith('BEGIN BIG RESULT\nThe quick brown fox')).toBe(true);
    expect(result?.endsWith('[Output truncated to 40000 characters.]')).toBe(true);
    expect(result!.length).toBeLessThan(41_000);
    expect(JSON.stringify(faults.api.requests.at(-1)?.body.messages)).toContain(
      '[Output truncated to 40000 characters.]',
    );
    expect(JSON.stringify(faults.api.requests.at(-1)?.body).length).toBeLessThan(60_000);
    expect((await storedMessages(faults, thread.id)).at(-1)).toMatchObject({
      status: 'complete',
      text: 'That was a lot.',
    });
  });

  it('two servers with the same tool name: two distinct tools, each call reaches its own server', async () => {
    const [north, south] = await Promise.all([
      own(startFaultMcpServer({ label: 'north' })),
      own(startFaultMcpServer({ label: 'south' })),
    ]);
    const faults = await app();
    await faults.addServer('north', north.url);
    await faults.addServer('south', south.url);
    await Promise.all([faults.registry.connect('north'), faults.registry.connect('south')]);
    const names = faults.registry
      .tools()
      .filter((t) => t.toolName === 'whoami')
      .map((t) => t.modelName);
    expect(names).toEqual(['mcp__north__whoami', 'mcp__south__whoami']);
    const thread = await faults.opened.storage.threads.create(faults.profileId, {
      title: 'Twins',
      enabledServerIds: ['north', 'south'],
    });
    faults.api.script(
      {
        toolUses: [
          { name: 'mcp__north__whoami', input: {} },
          { name: 'mcp__south__whoami', input: {} },
        ],
      },
      { text: 'Both answered.' },
    );
    expect(await sendMessage(faults.deps, thread.id, 'Who is there?', allow())).toEqual({ status: 'done' });
    expect(await toolResults(faults, thread.id)).toEqual(['answered by north', 'answered by south']);
  });

  it('a 401 after a working session: "needs sign-in" with the reason, tools stay listed, config and token stay stored', async () => {
    const server = await own(startFaultMcpServer({ requireBearer: 'tok-revoked-later' }));
    const faults = await app();
    await faults.addServer('revoked', server.url, 'tok-revoked-later');
    expect((await faults.registry.connect('revoked')).status).toBe('connected');
    expect((await faults.registry.callTool('revoked', 'whoami', {})).isError).toBe(false);
    server.revokeAuth();
    const call = await faults.registry.callTool('revoked', 'whoami', {});
    expect(call.failure).toEqual({
      kind: 'auth-required',
      message: 'The server requires authorization. Add a token or sign in, then connect again.',
    });
    const state = faults.registry.get('revoked')?.state;
    expect(state?.status).toBe('needs-auth');
    expect(state?.lastError?.message).toBe(
      'The server requires authorization. Add a token or sign in, then connect again.',
    );
    expect(faults.registry.tools(['revoked']).map((t) => t.toolName)).toEqual(['whoami', 'big-result']);
    expect((await faults.opened.storage.profiles.listServers(faults.profileId)).items.map((s) => s.id)).toEqual([
      'revoked',
    ]);
    expect(
      await faults.opened.storage.vault.get({ profileId: faults.profileId, owner: 'revoked', slot: BEARER_SLOT }),
    ).toBe('tok-revoked-later');
  });

  it.each([
    [
      'html',
      "The server's answer is not MCP (Unexpected content type: text/html). Check that the URL points at the MCP endpoint, which often ends in /mcp or /sse.",
    ],
    [
      'invalid-json',
      "The server's answer is not MCP (invalid JSON). Check that the URL points at the MCP endpoint, which often ends in /mcp or /sse.",
    ],
    [
      'status-500',
      'The server answered HTTP 500: the server failed; try again later; it said “Internal Server Error: the database is down”.',
    ],
  ] as const)(
    'a working server that starts answering %s: the card and the status say why, the tools stay listed, the thread is intact',
    async (kind, shown) => {
      const server = await own(startFaultMcpServer());
      const faults = await app();
      const thread = await threadWithServer(faults, 'flaky', server.url, `Broken ${kind}`);
      faults.api.script(
        { toolUses: [{ name: 'mcp__flaky__whoami', input: {} }] },
        { text: 'It worked.' },
        { toolUses: [{ name: 'mcp__flaky__whoami', input: {} }] },
        { text: 'The server is broken.' },
      );
      await sendMessage(faults.deps, thread.id, 'First call', allow());
      server.misbehave(kind);
      expect(await sendMessage(faults.deps, thread.id, 'Second call', allow())).toEqual({ status: 'done' });
      const [first, second] = await toolResults(faults, thread.id);
      expect(first).toBe('answered by fault-mcp-server');
      expect(second).toBe(shown);
      expect(faults.registry.get('flaky')?.state).toMatchObject({ status: 'error', lastError: { message: shown } });
      expect(faults.registry.tools(['flaky']).map((t) => t.toolName)).toEqual(['whoami', 'big-result']);
      expect((await storedMessages(faults, thread.id)).map((m) => `${m.role}:${m.status}`)).toEqual(
        Array(4).fill(['user:complete', 'assistant:complete']).flat(),
      );
      server.misbehave(undefined);
      expect((await faults.registry.callTool('flaky', 'whoami', {})).content).toEqual([
        { type: 'text', text: 'answered by fault-mcp-server' },
      ]);
      expect(faults.registry.get('flaky')?.state.status).toBe('connected');
      // The Connect button checks again rather than trusting the open connection.
      server.misbehave(kind);
      await faults.registry.callTool('flaky', 'whoami', {});
      expect(faults.registry.get('flaky')?.state.status).toBe('error');
      server.misbehave(undefined);
      expect(await faults.registry.connect('flaky')).toMatchObject({ status: 'connected' });
    },
  );

  it('Connect on a server in error while one of its calls runs checks it again without breaking that call', async () => {
    const server = await own(startFaultMcpServer({ withWaitTool: true }));
    const faults = await app();
    await faults.addServer('busy', server.url);
    await faults.registry.connect('busy');
    const before = server.authorizations.length;
    const running = faults.registry.callTool('busy', 'wait', { ms: 600 });
    await expect.poll(() => server.authorizations.length).toBeGreaterThan(before); // The call has reached the server.
    server.misbehave('status-500');
    await faults.registry.callTool('busy', 'whoami', {});
    expect(faults.registry.get('busy')?.state.status).toBe('error');
    // Still broken: Connect says so, and the call in flight goes on.
    expect(await faults.registry.connect('busy')).toMatchObject({
      status: 'error',
      lastError: {
        message:
          'The server answered HTTP 500: the server failed; try again later; it said “Internal Server Error: the database is down”.',
      },
    });
    server.misbehave(undefined);
    expect(await faults.registry.connect('busy')).toMatchObject({ status: 'connected' });
    expect((await running).content).toEqual([{ type: 'text', text: 'waited 600 ms' }]);
  });

  it('sends each bearer token only to its own server (two servers on two ports)', async () => {
    const [first, second] = await Promise.all([
      own(startFaultMcpServer({ requireBearer: 'token-one' })),
      own(startFaultMcpServer({ requireBearer: 'token-two' })),
    ]);
    const faults = await app();
    await faults.addServer('one', first.url, 'token-one');
    await faults.addServer('two', second.url, 'token-two');
    expect((await faults.registry.connect('one')).status).toBe('connected');
    expect((await faults.registry.connect('two')).status).toBe('connected');
    await Promise.all([faults.registry.callTool('one', 'whoami', {}), faults.registry.callTool('two', 'whoami', {})]);
    expect(first.authorizations.length).toBeGreaterThan(1);
    expect(second.authorizations.length).toBeGreaterThan(1);
    expect(new Set(first.authorizations)).toEqual(new Set(['Bearer token-one']));
    expect(new Set(second.authorizations)).toEqual(new Set(['Bearer token-two']));
  });
});
