/**
 * Real-world quirks of MCP servers (issue #19), each a test server in test/fixtures/test-mcp-server.ts, met by the
 * app's registry in real Chromium (where CORS is enforced): each connects, directly or through the relay
 * (relay/node-server.ts), or fails with a message naming the quirk.
 */
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayServer, type RelayServer } from '../../../relay/node-server';
import { startOAuthMcpServer } from '../../fixtures/oauth-mcp-server';
import { startTestMcpServer, type TestMcpServer, type TestMcpServerOptions } from '../../fixtures/test-mcp-server';
import { launchChromium, startViteServer, type LaunchedChromium, type StartedViteServer } from '../browser';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const HARNESS_PATH = '/test/e2e/harness/registry.html';

let vite: StartedViteServer | undefined;
let browser: LaunchedChromium | undefined;
let relay: RelayServer | undefined;
let page: Page;
const servers: TestMcpServer[] = [];
const stops: (() => Promise<void>)[] = [];
const pageErrors: string[] = [];

async function quirky(options: TestMcpServerOptions): Promise<TestMcpServer> {
  const server = await startTestMcpServer({ toolCount: 1, ...options });
  servers.push(server);
  return server;
}

const add = (id: string, url: string, viaRelay = false) =>
  page.evaluate(([i, u, v]) => window.registryHarness!.addServer(i, u, undefined, v), [id, url, viaRelay] as const);
const stateOf = (id: string) => page.evaluate((i) => window.registryHarness!.stateOf(i), id);
const callTool0 = async (id: string) =>
  (await page.evaluate((i) => window.registryHarness!.call(i, 'tool-0', {}), id)).content;

describe('real-world server quirks through the registry', () => {
  beforeAll(async () => {
    vite = await startViteServer({ root: REPO_ROOT, entries: [HARNESS_PATH.slice(1)] });
    // The quirky servers are on 127.0.0.1 too, so this relay lets loopback targets through.
    relay = await startRelayServer({ port: 0, allowedOrigins: [vite.url], allowPrivateTargets: true });
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${vite.url}${HARNESS_PATH}`);
    await page.waitForFunction(() => window.registryHarness !== undefined, undefined, { timeout: 60_000 });
    await page.evaluate((url) => window.registryHarness!.setRelay(url), relay.url);
  });

  afterAll(async () => {
    await browser?.close();
    await vite?.close();
    await relay?.close();
    for (const server of servers) await server.stop();
    for (const stop of stops) await stop();
  });

  it.each([
    ['none', 'no Access-Control-Allow-Origin header'],
    ['no-expose-session', 'the response does not expose mcp-session-id'],
    ['no-protocol-version', 'the preflight does not allow the request headers mcp-protocol-version'],
  ] as const)(
    'CORS quirk "%s": fails directly naming it, connects and calls through the relay',
    async (quirk, named) => {
      const server = await quirky({ cors: quirk });
      expect((await add(`direct-${quirk}`, server.url)).status).toBe('error');
      const state = await stateOf(`direct-${quirk}`);
      expect(state.kind).toBe('cors');
      expect(state.error).toContain(named);
      expect(state.error).toContain('Connect through the relay');
      expect(await add(`relayed-${quirk}`, server.url, true)).toEqual({ status: 'connected', transport: 'http' });
      expect(await callTool0(`relayed-${quirk}`)).toEqual([{ type: 'text', text: 'tool-0 ok' }]);
    },
  );

  it('without a relay set, the CORS quirks still name what to fix', async () => {
    await page.evaluate(() => window.registryHarness!.setRelay(undefined));
    try {
      const hidden = await quirky({ cors: 'no-expose-session' });
      await add('hidden-session', hidden.url);
      expect((await stateOf('hidden-session')).error).toContain('must expose Mcp-Session-Id to browsers');
      const noVersion = await quirky({ cors: 'no-protocol-version' });
      await add('no-version', noVersion.url);
      const state = await stateOf('no-version');
      expect(state.kind).toBe('cors');
      expect(state.error).toContain('allow the headers mcp-protocol-version');
    } finally {
      await page.evaluate((url) => window.registryHarness!.setRelay(url), relay!.url);
    }
  });

  it('JSON responses instead of SSE: connects and calls directly', async () => {
    const server = await quirky({ jsonResponse: true });
    expect(await add('json', server.url)).toEqual({ status: 'connected', transport: 'http' });
    expect(await callTool0('json')).toEqual([{ type: 'text', text: 'tool-0 ok' }]);
  });

  it('405 on the GET stream: connects and calls directly', async () => {
    const server = await quirky({ noGetStream: true });
    expect(await add('no-get', server.url)).toEqual({ status: 'connected', transport: 'http' });
    expect(await callTool0('no-get')).toEqual([{ type: 'text', text: 'tool-0 ok' }]);
    expect(server.requests.some((r) => r.method === 'GET')).toBe(true);
  });

  it('a session that expires mid-thread (404): the next call initializes again and succeeds', async () => {
    const server = await quirky({});
    expect((await add('expiring', server.url)).status).toBe('connected');
    expect(await callTool0('expiring')).toEqual([{ type: 'text', text: 'tool-0 ok' }]);
    const initializes = () => server.requests.filter((r) => r.rpcMethod === 'initialize').length;
    const before = initializes();
    server.expireSessions();
    expect(await callTool0('expiring')).toEqual([{ type: 'text', text: 'tool-0 ok' }]);
    expect(initializes()).toBe(before + 1);
  });

  it.each([false, true])(
    'a token endpoint without CORS (while /mcp has it): through the relay=%s',
    async (viaRelay) => {
      const server = await startOAuthMcpServer({ tokenWithoutCors: true });
      stops.push(() => server.stop());
      const id = viaRelay ? 'notes-relayed' : 'notes-direct';
      expect(
        await page.evaluate(([i, u, v]) => window.registryHarness!.addOAuthServer(i, u, v), [
          id,
          server.url,
          viaRelay,
        ] as const),
      ).toBe('needs-auth');
      const url = await page.evaluate((i) => window.registryHarness!.signInUrl(i), id);
      // The person's sign-in window, followed here: the authorization server redirects back with a code.
      const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location') ?? '');
      const params = { state: back.searchParams.get('state') ?? '', code: back.searchParams.get('code') ?? '' };
      const outcome = await page.evaluate((p) => window.registryHarness!.completeSignIn(p), params);
      if (viaRelay) expect(outcome).toBe('connected');
      else
        expect(outcome).toMatch(
          /failed at the token endpoint: .* its token endpoint does not answer CORS .*"Route through relay"/,
        );
    },
  );

  it('raised no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
