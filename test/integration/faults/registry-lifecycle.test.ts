import { afterEach, describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../../src/domain/errors';
import { RECONNECTS_GAVE_UP } from '../../../src/domain/mcp-errors';
import { BEARER_SLOT, headerSlot } from '../../../src/domain/server-config';
import type { RegistryEvent } from '../../../src/mcp/registry';
import { startBrokenServer } from '../../fixtures/broken-servers';
import { startTestMcpServer } from '../../fixtures/test-mcp-server';
import { sha256Hex } from '../../fakes/memory-stores';
import { TEST_PROFILE, createTestRegistry } from '../../fakes/test-registry';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function testServer(options?: Parameters<typeof startTestMcpServer>[0]) {
  const server = await startTestMcpServer(options);
  cleanup.push(() => server.stop());
  return server;
}
function setup(overrides?: Parameters<typeof createTestRegistry>[0]) {
  const test = createTestRegistry(overrides);
  cleanup.push(() => test.registry.close());
  return test;
}

describe('runtime lifecycle', () => {
  it('registers, updates and unregisters servers while running, with events', async () => {
    const server = await testServer();
    const { registry, secrets, catalogs } = setup();
    const events: RegistryEvent[] = [];
    registry.subscribe((e) => events.push(e));
    await registry.register({ id: 'test', name: 'Test', url: server.url }, 'user');
    await registry.connect('test');
    await secrets.put({ profileId: TEST_PROFILE, owner: 'test', slot: BEARER_SLOT }, 'tok');
    await registry.update({ id: 'test', name: 'Renamed', url: server.url });
    expect(registry.get('test')?.config.name).toBe('Renamed');
    const sessionOf = (method: string) =>
      server.requests.filter((r) => r.method === method).map((r) => r.headers['mcp-session-id']);
    const [session] = sessionOf('POST').filter(Boolean).slice(-1);
    await registry.unregister('test');
    // The server is told the session is over (MCP transports: clients SHOULD send DELETE), not left to time it out.
    expect(session).toBeDefined();
    expect(sessionOf('DELETE')).toEqual([session]);
    expect(registry.get('test')).toBeUndefined();
    expect(registry.tools()).toEqual([]);
    expect(await catalogs.get(TEST_PROFILE, 'test')).toBeUndefined();
    expect(secrets.values.size).toBe(0);
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['registered', 'status', 'tools', 'unregistered']),
    );
  });

  it('lists every page of a paginated catalog', async () => {
    const server = await testServer({ toolCount: 120, pageSize: 25 });
    const { registry } = setup();
    await registry.register({ id: 'big', name: 'Big', url: server.url }, 'user');
    await registry.connect('big');
    expect(registry.tools(['big']).filter((t) => t.toolName.startsWith('tool-'))).toHaveLength(120);
  });

  it('refreshes the catalog on tools/list_changed', async () => {
    const server = await testServer();
    const { registry } = setup();
    const changes: string[] = [];
    registry.subscribe((e) => e.type === 'tools' && changes.push(e.serverId));
    await registry.register({ id: 'live', name: 'Live', url: server.url }, 'user');
    await registry.connect('live');
    // The notification reaches a session only through its open GET stream.
    await expect.poll(() => server.openStreams).toBeGreaterThan(0);
    server.addTool('fresh', 'A tool added at runtime');
    await expect.poll(() => registry.tools(['live']).map((t) => t.toolName)).toContain('fresh');
    server.removeTool('fresh');
    await expect.poll(() => registry.tools(['live']).map((t) => t.toolName)).not.toContain('fresh');
  });

  it('takes in a tools/list_changed that comes while the first list is still being taken in', async () => {
    const server = await testServer({ toolCount: 100 });
    // Connect's intake of its 103 tools is held at its first yield until release.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let onHeld = () => {};
    const isHeld = new Promise<void>((resolve) => (onHeld = resolve));
    let isHolding = true;
    const yieldToPage = () => (isHolding ? (onHeld(), held) : Promise.resolve());
    // The client's standalone stream, watched for the notification passing through to the SDK.
    let onNotified = () => {};
    const notified = new Promise<void>((resolve) => (onNotified = resolve));
    const watching: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if ((init?.method ?? 'GET') !== 'GET' || !response.body) return response;
      const decoder = new TextDecoder();
      const watch = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          controller.enqueue(chunk);
          if (decoder.decode(chunk, { stream: true }).includes('notifications/tools/list_changed')) onNotified();
        },
      });
      return new Response(response.body.pipeThrough(watch), response);
    };
    const { registry } = setup({ yieldToPage, fetch: watching });
    await registry.register({ id: 's', name: 'S', url: server.url }, 'user');
    const connecting = registry.connect('s');
    await isHeld;
    await expect.poll(() => server.openStreams).toBeGreaterThan(0);
    server.addTool('added-meanwhile', 'Added while the first list was taken in');
    await notified;
    await new Promise((resolve) => setImmediate(resolve)); // The SDK's stream reading runs on promises: it has handled it.
    isHolding = false;
    release();
    expect((await connecting).status).toBe('connected');
    await vi.waitFor(() => expect(registry.tools(['s']).map((t) => t.toolName)).toContain('added-meanwhile'), {
      timeout: 5000,
    });
    expect(registry.tools(['s'])).toHaveLength(104);
  });

  it('says so once it stops trying to reconnect to a server that went away; Connect tries again', async () => {
    const server = await testServer();
    const { registry } = setup({ timing: { reconnect: { initialMs: 20, maxMs: 40, attempts: 2 } } });
    const errors: string[] = [];
    registry.subscribe((e) => {
      if (e.type === 'status' && e.state.lastError) errors.push(e.state.lastError.message);
    });
    await registry.register({ id: 'gone', name: 'Gone', url: server.url }, 'user');
    await registry.connect('gone');
    await expect.poll(() => server.openStreams).toBeGreaterThan(0);
    await server.stop(); // Its stream breaks: the drop is seen, and two reconnects fail.
    await vi.waitFor(() => expect(errors.at(-1)).toContain('stopped trying to reconnect'), { timeout: 15_000 });
    expect(errors.some((message) => message.includes('will keep trying'))).toBe(true);
    expect(registry.get('gone')?.state.lastError?.message).toBe(
      `${new URL(server.url).origin} does not answer; ${RECONNECTS_GAVE_UP}`,
    );
    expect((await registry.connect('gone')).status).toBe('error'); // Connect still tries (the server is still gone).
  });

  it('initializes again and retries once when the session expired (404)', async () => {
    const server = await testServer();
    const { registry } = setup();
    await registry.register({ id: 's', name: 'S', url: server.url }, 'user');
    expect((await registry.callTool('s', 'add', { a: 1, b: 2 })).content).toEqual([{ type: 'text', text: '1+2=3' }]);
    const sessionsBefore = server.sessions;
    server.expireSessions();
    const again = await registry.callTool('s', 'add', { a: 2, b: 2 });
    expect(again.content).toEqual([{ type: 'text', text: '2+2=4' }]);
    expect(server.sessions).toBeGreaterThan(0);
    expect(sessionsBefore).toBeGreaterThan(0);
  });

  it('keeps a tool whose schema cannot be compiled usable, with a warning', async () => {
    const server = await testServer();
    const { registry } = setup();
    await registry.register({ id: 's', name: 'S', url: server.url }, 'user');
    await registry.connect('s');
    const bad = registry.tools(['s']).find((t) => t.toolName === 'bad-schema');
    expect(bad?.warning).toContain('cannot be compiled');
    const result = await registry.callTool('s', 'bad-schema', { x: 'anything' });
    expect(result.isError).toBe(false);
  });

  it("compiles a large server's argument checks a step at a time after connecting; a call meanwhile checks its own tool", async () => {
    const server = await testServer({ toolCount: 100 });
    // The yield after the catalog's first event is held, so the test sees the checks before they are compiled.
    let isHeld = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { registry } = setup({ yieldToPage: () => (isHeld ? held : Promise.resolve()) });
    const toolEvents: string[] = [];
    registry.subscribe((e) => {
      if (e.type !== 'tools') return;
      toolEvents.push(e.serverId);
      isHeld = true;
    });
    await registry.register({ id: 's', name: 'S', url: server.url }, 'user');
    await registry.connect('s');
    const warningOf = () => registry.tools(['s']).find((t) => t.toolName === 'bad-schema')?.warning;
    expect(registry.tools(['s'])).toHaveLength(103);
    expect(warningOf()).toBeUndefined(); // Not compiled yet: the connection did not wait for it.
    const refused = await registry.callTool('s', 'add', { a: 'one' });
    expect(refused.failure?.kind).toBe('invalid-arguments');
    expect((await registry.callTool('s', 'add', { a: 1, b: 2 })).isError).toBe(false);
    release();
    await vi.waitFor(() => expect(warningOf()).toContain('cannot be compiled'));
    expect(toolEvents).toEqual(['s', 's']); // The views are told when the checks (and warnings) are in.
  });

  it('keeps the newer tool list when two list changes are taken in and the older one finishes last', async () => {
    const server = await testServer({ toolCount: 100 });
    // While held, a yield waits for release; `waiting` resolves when one does (the first intake is mid-way).
    let isHeld = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let onWait = () => {};
    const waiting = new Promise<void>((resolve) => (onWait = resolve));
    const yieldToPage = () => (isHeld ? (onWait(), held) : Promise.resolve());
    // Each intake ends its catalog with a hash: the third done (connect, the second change, then the first) is the last.
    let hashes = 0;
    let onThird = () => {};
    const third = new Promise<void>((resolve) => (onThird = resolve));
    const hash = async (text: string) => {
      const hashed = await sha256Hex(text);
      if (++hashes === 3) onThird();
      return hashed;
    };
    const { registry, catalogs } = setup({ yieldToPage, sha256Hex: hash });
    const stored: number[] = [];
    const set = catalogs.set.bind(catalogs);
    catalogs.set = (catalog) => (stored.push(catalog.tools.length), set(catalog));
    await registry.register({ id: 's', name: 'S', url: server.url }, 'user');
    await registry.connect('s');
    const names = () => registry.tools(['s']).map((t) => t.toolName);
    isHeld = true;
    server.addTool('first-added', 'Listed by the first change'); // list_changed: the first intake stops mid-way.
    await waiting;
    isHeld = false;
    server.addTool('second-added', 'Listed by the second change'); // The second intake runs through.
    await vi.waitFor(() => expect(names()).toContain('second-added'));
    release(); // The first (older) intake finishes now: it must not bring back the list without second-added.
    await third;
    await new Promise((resolve) => setImmediate(resolve)); // Its catalog is set, or dropped, within this turn.
    expect(names()).toHaveLength(105);
    expect(names()).toContain('second-added');
    expect(stored).toEqual([103, 105]);
  });

  it('sends the bearer token and custom headers from the vault, and only to the server', async () => {
    const server = await testServer({ requireBearer: 'secret-token' });
    const { registry, secrets } = setup();
    await registry.register({ id: 'b', name: 'B', url: server.url, auth: { kind: 'bearer' } }, 'user');
    expect((await registry.connect('b')).status).toBe('needs-auth');
    await secrets.put({ profileId: TEST_PROFILE, owner: 'b', slot: BEARER_SLOT }, 'secret-token');
    expect((await registry.connect('b')).status).toBe('connected');

    const headerServer = await testServer({ requireHeader: { name: 'x-api-key', value: 'k-123' } });
    await secrets.put({ profileId: TEST_PROFILE, owner: 'h', slot: headerSlot('X-Api-Key') }, 'k-123');
    await registry.register(
      { id: 'h', name: 'H', url: headerServer.url, auth: { kind: 'headers', headerNames: ['X-Api-Key'] } },
      'user',
    );
    expect((await registry.connect('h')).status).toBe('connected');
    expect(headerServer.requests.every((r) => r.headers['x-api-key'] === 'k-123')).toBe(true);
  });
});

describe('bad input', () => {
  it.each([
    ['not a url', 'must be a full URL'],
    ['ftp://example.com/mcp', 'must use https://'],
    ['http://example.com/mcp', 'plain http:// is allowed only for localhost'],
  ])('refuses the URL %s with a clear message and leaves existing servers untouched', async (url, message) => {
    const server = await testServer();
    const { registry } = setup();
    await registry.register({ id: 'ok', name: 'OK', url: server.url }, 'user');
    const error = await registry.register({ id: 'bad', name: 'Bad', url }, 'user').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]).toMatchObject({
      path: 'url',
      message: expect.stringContaining(message) as string,
    });
    expect(registry.list().map((s) => s.config.id)).toEqual(['ok']);
  });

  it('refuses a duplicate name or id', async () => {
    const { registry } = setup();
    await registry.register({ id: 'one', name: 'Weather', url: 'https://weather.example/mcp' }, 'app');
    await expect(
      registry.register({ id: 'two', name: 'weather', url: 'https://w2.example/mcp' }, 'user'),
    ).rejects.toThrow('A server named "weather" already exists');
    await expect(
      registry.register({ id: 'one', name: 'Other', url: 'https://w3.example/mcp' }, 'user'),
    ).rejects.toThrow('already exists');
    expect(registry.list()).toHaveLength(1);
  });

  it.each([
    ['html', 'not MCP'],
    ['invalid-json', 'not MCP'],
    ['status-500', 'HTTP 500'],
  ] as const)('a server answering %s gives a clear error status', async (kind, message) => {
    const broken = await startBrokenServer(kind);
    cleanup.push(() => broken.stop());
    const { registry } = setup();
    await registry.register({ id: 'broken', name: 'Broken', url: broken.url }, 'user');
    const state = await registry.connect('broken');
    expect(state.status).toBe('error');
    expect(state.lastError?.message).toContain(message);
  });

  it('a server that does not answer reports a CORS-or-down error naming the headers it must send', async () => {
    const { registry } = setup();
    await registry.register({ id: 'gone', name: 'Gone', url: 'http://127.0.0.1:9/mcp' }, 'user');
    const state = await registry.connect('gone');
    expect(state.status).toBe('error');
    expect(state.lastError?.kind).toBe('cors');
    expect(state.lastError?.message).toContain('Access-Control-Allow-Origin: http://127.0.0.1:5173');
    expect(state.lastError?.message).toContain('mcp-session-id');
    const call = await registry.callTool('gone', 'anything', {});
    expect(call.failure?.kind).toBe('cors');
  });
});
