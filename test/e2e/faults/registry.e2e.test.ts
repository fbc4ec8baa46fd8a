/** The MCP registry in real Chromium: cross-origin streamable HTTP and SSE, bearer auth from the vault, CORS errors. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerEverything } from '../../fixtures/server-everything';
import { startTestMcpServer } from '../../fixtures/test-mcp-server';
import { launchChromium, startViteServer, type LaunchedChromium, type StartedViteServer } from '../browser';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const HARNESS_PATH = '/test/e2e/harness/registry.html';

let vite: StartedViteServer | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;
const stops: (() => Promise<void>)[] = [];

describe('MCP registry in Chromium', () => {
  let everything: Awaited<ReturnType<typeof startServerEverything>>;
  let legacy: Awaited<ReturnType<typeof startServerEverything>>;
  let guarded: Awaited<ReturnType<typeof startTestMcpServer>>;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [everything, legacy, guarded] = await Promise.all([
      startServerEverything({ mode: 'streamableHttp' }),
      startServerEverything({ mode: 'sse' }),
      startTestMcpServer({ requireBearer: 'browser-token' }),
    ]);
    stops.push(
      () => everything.stop(),
      () => legacy.stop(),
      () => guarded.stop(),
    );
    vite = await startViteServer({ root: REPO_ROOT, entries: [HARNESS_PATH.slice(1)] });
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${vite.url}${HARNESS_PATH}`);
    await page.waitForFunction(() => window.registryHarness !== undefined, undefined, { timeout: 30_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await vite?.close();
    for (const stop of stops) await stop();
  });

  it('connects cross-origin over streamable HTTP and calls echo and an image tool', async () => {
    const state = await page.evaluate((url) => window.registryHarness!.addServer('everything', url), everything.url);
    expect(state).toEqual({ status: 'connected', transport: 'http' });
    expect(await page.evaluate(() => window.registryHarness!.toolNames('everything'))).toContain('echo');
    const echo = await page.evaluate(() =>
      window.registryHarness!.call('everything', 'echo', { message: 'from the browser' }),
    );
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: from the browser' }]);
    const image = await page.evaluate(() => window.registryHarness!.call('everything', 'get-tiny-image', {}));
    expect(image.content.some((c) => c.type === 'image')).toBe(true);
  });

  it('falls back to the legacy SSE transport', async () => {
    const state = await page.evaluate((url) => window.registryHarness!.addServer('legacy', url), legacy.url);
    expect(state).toEqual({ status: 'connected', transport: 'sse' });
    const echo = await page.evaluate(() => window.registryHarness!.call('legacy', 'echo', { message: 'sse' }));
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: sse' }]);
  });

  it('sends the bearer token from the vault', async () => {
    const state = await page.evaluate(
      (url) => window.registryHarness!.addServer('guarded', url, 'browser-token'),
      guarded.url,
    );
    expect(state.status).toBe('connected');
    expect(
      guarded.requests
        .filter((r) => r.method === 'POST')
        .every((r) => r.headers.authorization === 'Bearer browser-token'),
    ).toBe(true);
  });

  it('explains a server that sends no CORS headers, naming this origin', async () => {
    // A server that answers everything, but without any Access-Control-* header: the browser hides its answers.
    const noCors = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    await new Promise<void>((resolve) => noCors.listen(0, '127.0.0.1', resolve));
    stops.push(() => new Promise((resolve) => noCors.close(() => resolve())));
    const { port } = noCors.address() as AddressInfo;
    const state = await page.evaluate(
      (url) => window.registryHarness!.addServer('nocors', url),
      `http://127.0.0.1:${port}/mcp`,
    );
    expect(state.status).toBe('error');
    const detail = await page.evaluate(() => window.registryHarness!.stateOf('nocors'));
    expect(detail.kind).toBe('cors');
    expect(detail.error).toContain(`Access-Control-Allow-Origin: ${vite!.url}`);
  });

  it('raised no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
