/**
 * The registry through the relay (issue #19): servers routed through it connect and call tools through it, OAuth
 * discovery, registration and token requests of such a server go through it too, and a relay that is down, is not a
 * relay, or refuses gives one clear error. The relay is relay/node-server.ts on 127.0.0.1; Node's fetch sends no
 * Origin, so the registry's fetch here adds the page's, as a browser does.
 */
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startRelayServer, type RelayServer } from '../../../relay/node-server';
import type { SignInCallback } from '../../../src/mcp/registry';
import { checkRelay } from '../../../src/mcp/relay-client';
import { createStreamSlots } from '../../../src/mcp/stream-slots';
import { createLocalLocks } from '../../../src/platform/locks';
import { createTestRegistry } from '../../fakes/test-registry';
import { listenOnLoopback } from '../../fixtures/listen-loopback';
import { startOAuthMcpServer } from '../../fixtures/oauth-mcp-server';
import { startTestMcpServer } from '../../fixtures/test-mcp-server';

const APP = 'http://127.0.0.1:5173';
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** Node's fetch with the page's Origin, as the browser sends it on every cross-origin request. */
const browserFetch = (input: string | URL, init?: RequestInit) => {
  const headers = new Headers(init?.headers);
  headers.set('origin', APP);
  return fetch(input, { ...init, headers });
};

async function relay(options: { allowPrivateTargets?: boolean } = {}): Promise<RelayServer & { lines: string[] }> {
  const lines: string[] = [];
  const started = await startRelayServer({
    port: 0,
    allowedOrigins: [APP],
    allowPrivateTargets: options.allowPrivateTargets ?? true,
    log: (line) => lines.push(line),
  });
  cleanup.push(started.close);
  return { ...started, lines };
}

function registry(relayUrl: string | undefined, extra: Parameters<typeof createTestRegistry>[0] = {}) {
  const test = createTestRegistry({ fetch: browserFetch, ...extra });
  cleanup.push(() => test.registry.close());
  void test.registry.setRelayUrl(relayUrl);
  return test.registry;
}

describe('a server routed through the relay', () => {
  it('connects and calls a tool through it', async () => {
    const server = await startTestMcpServer({ toolCount: 1, cors: 'none' });
    cleanup.push(() => server.stop());
    const through = await relay();
    const reg = registry(through.url);
    await reg.register({ id: 'plain', name: 'Plain', url: server.url, viaRelay: true }, 'user');
    expect(await reg.connect('plain')).toMatchObject({ status: 'connected' });
    const result = await reg.callTool('plain', 'tool-0', {});
    expect(result.content).toEqual([{ type: 'text', text: 'tool-0 ok' }]);
    expect(through.lines.filter((l) => l.startsWith('POST')).length).toBeGreaterThanOrEqual(3);
  });

  it("counts the streams of servers routed through a plain-http relay against the relay's address", async () => {
    const servers = await Promise.all([1, 2, 3, 4].map(() => startTestMcpServer({ cors: 'none' })));
    cleanup.push(() => Promise.all(servers.map((server) => server.stop())).then(() => {}));
    const through = await relay();
    const reg = registry(through.url, { streamSlots: createStreamSlots(createLocalLocks()) });
    // Four servers, each on its own port, and one address the browser really talks to: the relay's.
    for (const [i, server] of servers.entries()) {
      await reg.register({ id: `s${i}`, name: `S${i}`, url: server.url, viaRelay: true }, 'user');
      expect(await reg.connect(`s${i}`)).toMatchObject({ status: 'connected' });
    }
    const openStreams = () => servers.reduce((sum, server) => sum + server.openStreams, 0);
    await expect.poll(openStreams).toBe(3);
    expect(servers.map((_, i) => reg.get(`s${i}`)?.state.liveUpdates).filter((live) => live === false)).toHaveLength(1);
  });

  it('sends OAuth discovery, registration and token requests through it as well', async () => {
    const server = await startOAuthMcpServer();
    cleanup.push(() => server.stop());
    const through = await relay();
    const { registry: reg } = createTestRegistry({
      fetch: browserFetch,
      oauth: { settings: { redirectUrl: `${APP}/oauth/callback`, clientName: 'MCP Agent test' } },
    });
    cleanup.push(() => reg.close());
    await reg.setRelayUrl(through.url);
    await reg.register(
      { id: 'notes', name: 'Notes', url: server.url, auth: { kind: 'oauth' }, viaRelay: true },
      'user',
    );
    expect((await reg.connect('notes')).status).toBe('needs-auth');
    let callback: SignInCallback | undefined;
    await reg.signIn('notes', async (url) => {
      const response = await fetch(url, { redirect: 'manual' }); // The person's browser window, not relayed.
      const back = new URL(response.headers.get('location') ?? '');
      callback = { state: back.searchParams.get('state') ?? '', code: back.searchParams.get('code') ?? '' };
    });
    expect(await reg.completeSignIn(callback!)).toMatchObject({ state: { status: 'connected' } });
    const log = through.lines.join('\n');
    expect(log).toMatch(/GET \S+\/\.well-known\/oauth-protected-resource\S* -> 200/);
    expect(log).toMatch(/GET \S+\/\.well-known\/oauth-authorization-server\S* -> 200/);
    expect(log).toMatch(/POST \S+\/register -> 201/); // Dynamic client registration.
    expect(log).toMatch(/POST \S+\/token -> 200/);
    expect(log).not.toContain(server.issuedAccessTokens.at(-1) ?? 'no token');
  });
});

describe('a relay that cannot be used gives one clear error', () => {
  it('down: the relay does not answer', async () => {
    const server = await startTestMcpServer({ cors: 'none' });
    cleanup.push(() => server.stop());
    const gone = await relay();
    await gone.close();
    const reg = registry(gone.url);
    await reg.register({ id: 'plain', name: 'Plain', url: server.url, viaRelay: true }, 'user');
    const state = await reg.connect('plain');
    expect(state.lastError?.kind).toBe('relay-unreachable');
    expect(state.lastError?.message).toBe(
      `The relay at ${gone.url} does not answer. Check the Relay URL in Settings and that the relay is running.`,
    );
  });

  it("the server behind it is down: the relay's own words, not an HTTP error of the server's", async () => {
    const server = await startTestMcpServer({ cors: 'none' });
    const url = server.url;
    await server.stop();
    const through = await relay();
    const reg = registry(through.url);
    await reg.register({ id: 'plain', name: 'Plain', url, viaRelay: true }, 'user');
    const state = await reg.connect('plain');
    expect(state.lastError?.kind).toBe('unreachable');
    expect(state.lastError?.message).toContain(
      `does not answer; the relay says: the target ${new URL(url).origin} does not answer`,
    );
  });

  it('not a relay: another server at that address', async () => {
    const server = await startTestMcpServer({ cors: 'none' });
    cleanup.push(() => server.stop());
    const other = await listenOnLoopback(createServer((_req, res) => res.writeHead(200).end('<html>hello</html>')));
    cleanup.push(other.close);
    const reg = registry(`http://127.0.0.1:${other.port}/`);
    await reg.register({ id: 'plain', name: 'Plain', url: server.url, viaRelay: true }, 'user');
    const state = await reg.connect('plain');
    expect(state.lastError?.kind).toBe('not-a-relay');
    expect(state.lastError?.message).toMatch(/answered, but it is not an MCP relay/);
  });

  it('refused: the reason the relay gave', async () => {
    const server = await startTestMcpServer({ cors: 'none' });
    cleanup.push(() => server.stop());
    const strict = await relay({ allowPrivateTargets: false });
    const reg = registry(strict.url);
    await reg.register({ id: 'plain', name: 'Plain', url: server.url, viaRelay: true }, 'user');
    const state = await reg.connect('plain');
    expect(state.lastError?.kind).toBe('relay-refused');
    expect(state.lastError?.message).toMatch(
      /^The relay refused the request: the target 127\.0\.0\.1 is a loopback or private address/,
    );
  });

  it('not set: the server says a Relay URL is needed', async () => {
    const server = await startTestMcpServer({ cors: 'none' });
    cleanup.push(() => server.stop());
    const reg = registry(undefined);
    await reg.register({ id: 'plain', name: 'Plain', url: server.url, viaRelay: true }, 'user');
    expect((await reg.connect('plain')).lastError?.kind).toBe('relay-not-set');
  });
});

describe("checking the relay in effect (Settings' Use relay) before any server needs it", () => {
  it('a relay that serves this page answers, and no server is reached', async () => {
    const through = await relay();
    expect(await registry(through.url).checkRelay()).toBeUndefined();
    expect(through.lines.filter((line) => !line.startsWith('probe'))).toEqual([]);
  });

  it('says what is wrong: nothing listening, another server, a relay that does not serve this origin', async () => {
    const down = await listenOnLoopback(createServer());
    const downUrl = `http://127.0.0.1:${down.port}/`;
    await down.close();
    expect((await registry(downUrl).checkRelay())?.message).toBe(
      `The relay at ${downUrl} does not answer. Check the Relay URL in Settings and that the relay is running.`,
    );
    const other = await listenOnLoopback(createServer((_req, res) => res.writeHead(200).end('<html>hello</html>')));
    cleanup.push(other.close);
    expect((await registry(`http://127.0.0.1:${other.port}/`).checkRelay())?.kind).toBe('not-a-relay');
    const elsewhere = await startRelayServer({ port: 0, allowedOrigins: ['https://other.example'] });
    cleanup.push(elsewhere.close);
    expect((await registry(elsewhere.url).checkRelay())?.message).toBe(
      `The relay refused the request: Origin not allowed: ${APP}; start the relay with --allow-origin ORIGIN.`,
    );
  });

  it('an address that takes the connection and never answers is reported as not answering, after the wait', async () => {
    const silent = await listenOnLoopback(createServer(() => undefined)); // Never answers.
    cleanup.push(silent.close);
    const url = `http://127.0.0.1:${silent.port}/`;
    expect((await checkRelay(url, browserFetch, undefined, 300))?.kind).toBe('relay-unreachable');
  });

  it('no relay set: nothing to check', async () => {
    expect(await registry(undefined).checkRelay()).toBeUndefined();
  });
});
