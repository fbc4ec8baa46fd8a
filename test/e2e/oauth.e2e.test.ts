/** OAuth in the real app: add a protected server, sign in through the popup, stay signed in across reloads and expiry. */
import type { Page } from 'playwright-core';
import { saveKeyAndBaseUrl } from './app-page';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { startOAuthMcpServer } from '../fixtures/oauth-mcp-server';
import { startAppServer, type AppServer } from './app-server';
import { launchChromium, type LaunchedChromium } from './browser';
import { dumpIndexedDb } from './idb-dump';

let app: AppServer | undefined;
let browser: LaunchedChromium | undefined;
let oauthServer: Awaited<ReturnType<typeof startOAuthMcpServer>> | undefined;
let api: FakeAnthropic | undefined;
let page: Page;

const serverItem = () => page.getByRole('listitem', { name: 'Secure notes' });

/** Opens the Servers panel (after a load it is closed, and Settings opens while no API key is set). */
async function openServers(target: Page = page): Promise<void> {
  await target.getByRole('button', { name: 'Servers' }).click();
  await target.getByRole('heading', { name: 'Servers' }).waitFor();
}

describe('OAuth sign-in in the app', () => {
  const pageErrors: string[] = [];

  beforeAll(async () => {
    // Its answers name their issuer (RFC 9207) and its metadata says they always do: a sign-in whose popup or
    // callback page dropped `iss` on the way would be refused as a mix-up.
    [oauthServer, api, app] = await Promise.all([
      startOAuthMcpServer({ namesIssuer: true }),
      startFakeAnthropic(),
      startAppServer(),
    ]);
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(app.url);
    await openServers();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await oauthServer?.stop();
    await api?.stop();
  });

  it('adds an OAuth server, which asks for a sign-in', async () => {
    await page.getByLabel('Server name').fill('Secure notes');
    await page.getByLabel('Server URL').fill(oauthServer!.url);
    await page.getByLabel('Authentication').selectOption('oauth');
    await page.getByRole('button', { name: 'Add server' }).click();
    await expect.poll(() => serverItem().textContent()).toContain('Sign-in needed');
    // Waiting for a first sign-in is no error: said plainly, in the row's ordinary text colour.
    const note = serverItem().getByText('This server asks you to sign in: use Sign in', { exact: false });
    await note.waitFor();
    expect(await note.getAttribute('class')).toBe('muted');
  });

  it('signs in through a popup that closes itself, and connects with the token', async () => {
    // The authorization server's page reports what it can reach of the app's tab before it goes on as it would.
    let openerSeen: string | null | undefined;
    await browser!.context.route('**/opener-report?**', (route) => {
      openerSeen = new URL(route.request().url()).searchParams.get('isNull');
      return route.fulfill({ status: 204 });
    });
    await browser!.context.route('**/authorize?**', async (route) => {
      const upstream = await route.fetch({ maxRedirects: 0 });
      const next = JSON.stringify(upstream.headers()['location']);
      const script = `fetch('/opener-report?isNull=' + (window.opener === null)).finally(() => location.replace(${next}))`;
      await route.fulfill({ status: 200, contentType: 'text/html', body: `<script>${script}</script>` });
    });
    const popupOpened = browser!.context.waitForEvent('page');
    await serverItem().getByRole('button', { name: 'Sign in to Secure notes' }).click();
    const popup = await popupOpened;
    await popup.waitForEvent('close', { timeout: 15_000 });
    await browser!.context.unrouteAll();
    // It had no handle on the app's tab (reverse tabnabbing): the callback came back over the app's own channel.
    expect(openerSeen).toBe('true');
    await expect.poll(() => serverItem().textContent(), { timeout: 10_000 }).toContain('Connected');
    expect(await serverItem().textContent()).toContain('2 tools');
    expect(oauthServer!.stats.authorizeRequests).toBe(1);
    const listed = oauthServer!.stats.mcpRequests.filter((r) => r.rpcMethod === 'tools/list');
    expect(listed.at(-1)).toMatchObject({
      status: 200,
      authorization: `Bearer ${oauthServer!.issuedAccessTokens.at(-1)}`,
    });
    expect(oauthServer!.stats.authorizations[0]?.resource).toBe(oauthServer!.url);
  });

  it('calls a tool of the server from a chat turn, with the token', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    await saveKeyAndBaseUrl(page, 'sk-ant-oauth-e2e', api!.url);
    await page.getByRole('button', { name: 'New thread', exact: true }).click();
    await page.getByRole('switch', { name: 'Secure notes', exact: true }).check();
    api!.script({ toolUses: [{ name: 'mcp__secure-notes__whoami', input: {} }] }, { text: 'Done.' });
    await page.getByRole('textbox', { name: 'Message' }).fill('Who am I?');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await page.getByRole('button', { name: 'Allow once' }).click({ timeout: 15_000 });
    await page.getByRole('list', { name: 'Messages' }).getByText('Done.').waitFor({ timeout: 15_000 });
    const call = oauthServer!.stats.mcpRequests.find((r) => r.rpcMethod === 'tools/call');
    expect(call).toMatchObject({ status: 200, authorization: `Bearer ${oauthServer!.issuedAccessTokens.at(-1)}` });
    expect(JSON.stringify(api!.requests.at(-1)?.body.messages)).toContain('authorized as');
  });

  it('is still signed in after a reload', async () => {
    await page.reload();
    await openServers();
    // The open thread has the server on, so it connects as the page loads, without a click.
    await expect.poll(() => serverItem().textContent()).toContain('Connected');
    expect(await serverItem().getByRole('button', { name: 'Connect Secure notes' }).count()).toBe(0);
    expect(oauthServer!.stats.authorizeRequests).toBe(1);
  });

  it('refreshes an expired access token instead of asking to sign in again', async () => {
    const refreshesBefore = oauthServer!.stats.tokenRequests.filter((r) => r.grantType === 'refresh_token').length;
    oauthServer!.expireAccessTokens();
    await page.reload();
    await openServers();
    // The open thread has the server on, so it connects as the page loads, without a click.
    await expect.poll(() => serverItem().textContent()).toContain('Connected');
    expect(await serverItem().getByRole('button', { name: 'Connect Secure notes' }).count()).toBe(0);
    const refreshes = oauthServer!.stats.tokenRequests.filter((r) => r.grantType === 'refresh_token').length;
    expect(refreshes).toBe(refreshesBefore + 1);
    expect(oauthServer!.stats.authorizeRequests).toBe(1);
    await page.screenshot({ path: 'test-results/screenshots/servers-oauth.png', fullPage: true });
  });

  it('says so when the person closes the sign-in window before finishing', async () => {
    // Hold the authorization page so the person has time to close the window.
    await browser!.context.route('**/authorize**', () => undefined);
    const popupOpened = browser!.context.waitForEvent('page');
    await serverItem().getByRole('button', { name: 'Sign in to Secure notes' }).click();
    const popup = await popupOpened;
    await serverItem().getByText('Waiting for the sign-in window…').waitFor();
    await popup.close();
    await expect
      .poll(() => serverItem().textContent())
      .toContain('The sign-in window was closed before the sign-in finished.');
    await browser!.context.unroute('**/authorize**');
  });

  it('says why when the sign-in fails at a token endpoint without CORS, and what to do', async () => {
    const bare = await startOAuthMcpServer({ tokenWithoutCors: true });
    try {
      await page.getByLabel('Server name').fill('Bare notes');
      await page.getByLabel('Server URL').fill(bare.url);
      await page.getByLabel('Authentication').selectOption('oauth');
      await page.getByRole('button', { name: 'Add server' }).click();
      const item = page.getByRole('listitem', { name: 'Bare notes' });
      await expect.poll(() => item.textContent()).toContain('Sign-in needed');
      const popupOpened = browser!.context.waitForEvent('page');
      await item.getByRole('button', { name: 'Sign in to Bare notes' }).click();
      await (await popupOpened).waitForEvent('close', { timeout: 15_000 });
      await expect
        .poll(() => item.textContent(), { timeout: 15_000 })
        .toContain('Sign-in to Bare notes failed at the token endpoint');
      expect(await item.textContent()).toContain(
        'Switch on "Route through relay" for this server, then sign in again.',
      );
      page.once('dialog', (dialog) => void dialog.accept());
      await item.getByRole('button', { name: 'Remove Bare notes' }).click();
      await expect.poll(() => item.count()).toBe(0);
    } finally {
      await bare.stop();
    }
  });

  it('signs in with a full-page redirect when popups are blocked', async () => {
    const blocked = await browser!.context.newPage();
    await blocked.addInitScript(() => {
      window.open = () => null;
    });
    await blocked.goto(app!.url);
    await openServers(blocked);
    const item = blocked.getByRole('listitem', { name: 'Secure notes' });
    await item.getByRole('button', { name: 'Sign in to Secure notes' }).click();
    await blocked.waitForURL(`${app!.url}/`, { timeout: 15_000 });
    await openServers(blocked);
    await expect.poll(() => item.textContent(), { timeout: 10_000 }).toContain('Connected');
    expect(oauthServer!.stats.authorizeRequests).toBe(2);
    await blocked.close();
  });

  it('keeps no token in plaintext in IndexedDB, localStorage or sessionStorage', async () => {
    const dump = await dumpIndexedDb(page);
    const web = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    const tokens = [...oauthServer!.issuedAccessTokens, ...oauthServer!.issuedRefreshTokens];
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    for (const token of tokens) {
      expect(dump).not.toContain(token);
      expect(web).not.toContain(token);
    }
    expect(dump).toContain('oauth-tokens'); // The dump does reach the vault's records.
  });

  it('signs out (tokens forgotten) and removes the server with its credentials', async () => {
    await serverItem().getByRole('button', { name: 'Sign out of Secure notes' }).click();
    await serverItem().getByText('Signed out.').waitFor();
    expect(await dumpIndexedDb(page)).not.toContain('oauth-tokens');
    page.once('dialog', (dialog) => void dialog.accept());
    await serverItem().getByRole('button', { name: 'Remove Secure notes' }).click();
    await expect.poll(() => serverItem().count()).toBe(0);
    const dump = await dumpIndexedDb(page);
    expect(dump).not.toContain('oauth-client');
    expect(dump).not.toContain('Secure notes');
  });

  it('raised no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
