/**
 * A server that answers no CORS, reached through the relay (issue #19): the first attempt fails with the relay probe's
 * diagnosis, "Connect through relay" connects, a tool call goes through it, and the choice survives a reload. The
 * production build, the fake Messages API, the SDK test server without CORS and the relay (relay/node-server.ts), all
 * on 127.0.0.1, in real Chromium.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayServer, type RelayServer } from '../../relay/node-server';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { startTestMcpServer, type TestMcpServer } from '../fixtures/test-mcp-server';
import { openAppPage } from './app-page';
import { startAppServer, type AppServer } from './app-server';
import { closeServersPanel, openServersPanel } from './app-steps';
import type { LaunchedChromium } from './browser';

let plain: TestMcpServer | undefined;
let second: TestMcpServer | undefined;
let api: FakeAnthropic | undefined;
let app: AppServer | undefined;
let relay: RelayServer | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;
let pageErrors: string[] = [];

const item = () => page.getByRole('listitem', { name: 'Plain', exact: true });
const messages = () => page.getByRole('list', { name: 'Messages' });

const openServers = () => openServersPanel(page);

const closeServers = () => closeServersPanel(page);

/** Fills the add form with a server and presses Add server (it is tried first); returns the form. */
async function submitAddForm(name: string, url: string) {
  const form = page.getByRole('form', { name: 'Add a server' });
  await form.getByRole('textbox', { name: 'Server name' }).fill(name);
  await form.getByRole('textbox', { name: 'Server URL' }).fill(url);
  await form.getByRole('button', { name: 'Add server' }).click();
  return form;
}

describe('a server without CORS, through the relay', () => {
  beforeAll(async () => {
    [plain, second, api, app] = await Promise.all([
      startTestMcpServer({ toolCount: 1, cors: 'none' }),
      startTestMcpServer({ cors: 'none' }),
      startFakeAnthropic(),
      startAppServer(),
    ]);
    // The test server is on 127.0.0.1 too, so this relay lets loopback targets through.
    relay = await startRelayServer({ port: 0, allowedOrigins: [app.url], allowPrivateTargets: true });
    const appConfig = { defaults: { toolSearch: { deferral: 'never' } } };
    ({ browser, page, pageErrors } = await openAppPage(app.url, { appConfig, viewport: { width: 1280, height: 900 } }));
    await page.getByLabel('API key').fill('sk-ant-relay-e2e');
    await page.getByRole('textbox', { name: 'Base URL' }).fill(api.url);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await relay?.close();
    await app?.close();
    await api?.stop();
    await plain?.stop();
    await second?.stop();
  });

  it('takes a Relay URL in Settings and tries it at once: a wrong one says why, the right one answers', async () => {
    const field = page.getByRole('textbox', { name: 'Relay URL' });
    // The fake Messages API is no relay; the address is kept as typed, and the line says what is wrong now.
    await field.fill(`${api!.url}/`);
    await page.getByRole('button', { name: 'Use relay' }).click();
    await page
      .getByText(
        `Relay set, but it does not work yet: ${api!.url}/ answered, but it is not an MCP relay. Check the Relay URL in Settings (npm run relay serves one).`,
      )
      .waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await field.fill(relay!.url);
    await page.getByRole('button', { name: 'Use relay' }).click();
    await page.getByText(`Relay set: ${relay!.url} answers and serves this app.`).waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('false');
  });

  it("fails on CORS at first and names what the relay's probe found missing", async () => {
    await openServers();
    const form = await submitAddForm('Plain', plain!.url);
    const addAnyway = form.getByRole('button', { name: 'Add anyway?' });
    await addAnyway.waitFor({ timeout: 30_000 });
    expect(await form.textContent()).toContain('no Access-Control-Allow-Origin header');
    // The question has the focus and is in view, under its reason, however long that is.
    expect(await addAnyway.evaluate((e) => e === document.activeElement)).toBe(true);
    const shown = (await addAnyway.boundingBox())!;
    expect(shown.y).toBeGreaterThanOrEqual(0);
    expect(shown.y + shown.height).toBeLessThanOrEqual(page.viewportSize()!.height);
    await addAnyway.click();
    await expect
      .poll(() => item().textContent(), { timeout: 30_000 })
      .toContain('no Access-Control-Allow-Origin header');
    expect(await item().textContent()).toContain(
      'does not allow the request headers content-type, mcp-protocol-version',
    );
    expect(plain!.requests.some((r) => r.rpcMethod === 'tools/list')).toBe(false);
  });

  it('"Connect through relay" connects, and the status line says it goes through the relay', async () => {
    await item().getByRole('button', { name: 'Connect Plain through relay' }).click();
    await expect.poll(() => item().textContent(), { timeout: 30_000 }).toMatch(/Connected\d+ tools/);
    expect(await item().textContent()).toContain('through the relay');
    expect(await item().getByRole('button', { name: 'Connect Plain', exact: true }).count()).toBe(0);
    // The relay forwards without the page's Origin.
    const listed = plain!.requests.filter((r) => r.rpcMethod === 'tools/list');
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((r) => r.headers.origin === undefined)).toBe(true);
  });

  it('a tool call works through the relay', async () => {
    await closeServers();
    await page.getByRole('button', { name: 'New thread', exact: true }).first().click();
    await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
    await page.getByRole('group', { name: 'Servers in this thread' }).getByRole('switch', { name: 'Plain' }).check();
    api!.script({ toolUses: [{ name: 'mcp__plain__tool-0', input: {} }] }, { text: 'The tool answered.' });
    await page.getByRole('textbox', { name: 'Message' }).fill('Run tool-0');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await page.getByRole('button', { name: 'Allow once' }).click({ timeout: 30_000 });
    await messages().getByText('The tool answered.').waitFor({ timeout: 30_000 });
    expect(plain!.requests.some((r) => r.rpcMethod === 'tools/call')).toBe(true);
    expect(JSON.stringify(api!.requests.at(-1)?.body.messages)).toContain('tool-0 ok');
  });

  it('keeps the choice after a reload', async () => {
    await page.reload();
    await openServers();
    await expect.poll(() => item().textContent(), { timeout: 30_000 }).toContain('through the relay');
    await expect.poll(() => item().textContent(), { timeout: 30_000 }).toMatch(/Connected\d+ tools/);
  });

  it('a CORS failure in the add form offers "Try through relay": the form is routed through it and tried again', async () => {
    const form = await submitAddForm('Second', second!.url);
    const tryRelay = form.getByRole('button', { name: 'Try through relay' });
    await tryRelay.click({ timeout: 30_000 });
    await form
      .getByText(/^Connection works: \d+ tools \(streamable HTTP\)\. Nothing was saved\.$/)
      .waitFor({ timeout: 30_000 });
    const routed = form.getByRole('switch', { name: /Route through relay/ });
    expect(await routed.isChecked()).toBe(true);
    expect(await routed.evaluate((e) => e === document.activeElement)).toBe(true);
    await form.getByRole('button', { name: 'Add server' }).click();
    const added = page.getByRole('listitem', { name: 'Second', exact: true });
    await expect.poll(() => added.textContent(), { timeout: 30_000 }).toMatch(/Connected\d+ tools/);
    expect(await added.textContent()).toContain('through the relay');
  });

  it('raised no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
