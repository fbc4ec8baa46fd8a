/**
 * Installable and offline (issue #22), in Chromium against a copy of the production build: the page has a web app
 * manifest Chromium finds installable; its service worker keeps the app shell, so that with the network cut (CDP
 * network emulation) a reload still opens the app with its stored threads, and sending says there is no connection;
 * nothing from the model API is ever cached; and a new deploy is offered as a new version, taken on the person's reload.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../../fakes/fake-anthropic';
import { openAppPage, saveKeyAndBaseUrl, type AppPage } from '../app-page';
import { buildApp, OUT_DIR, ROOT, startAppServer, type AppServer } from '../app-server';
import { axeViolations } from '../axe-audit';

const SHOTS = 'test-results/screenshots';
let deployDir = '';
let app: AppServer | undefined;
let api: FakeAnthropic | undefined;
let opened: AppPage | undefined;
let page: Page;
let cdp: CDPSession;

const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message' });
const nav = () => page.getByRole('navigation', { name: 'Threads' });
const offlineNote = () => page.getByRole('status').filter({ hasText: 'No connection.' });
const isControlled = () => page.evaluate(() => navigator.serviceWorker.controller !== null);

/** Cuts or restores the page's network the way DevTools' "Offline" does. */
async function setOffline(offline: boolean): Promise<void> {
  await cdp.send('Network.emulateNetworkConditions', {
    offline,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
}

/** Every URL the page's caches hold. */
const cachedUrls = () =>
  page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    return urls;
  });

describe('installable and offline', () => {
  beforeAll(async () => {
    await buildApp();
    deployDir = await mkdtemp(join(tmpdir(), 'mcp-agent-deploy-'));
    await cp(resolve(ROOT, OUT_DIR), deployDir, { recursive: true });
    [api, app] = await Promise.all([startFakeAnthropic(), startAppServer({ outDir: deployDir })]);
    opened = await openAppPage(app.url, { viewport: { width: 1280, height: 800 }, serviceWorkers: 'allow' });
    page = opened.page;
    cdp = await opened.browser.context.newCDPSession(page);
    await saveKeyAndBaseUrl(page, 'sk-ant-offline', api.url);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
  });

  afterAll(async () => {
    await opened?.browser.close();
    await app?.close();
    await api?.stop();
    if (deployDir) await rm(deployDir, { recursive: true, force: true });
  });

  it('is installable: a manifest with name, icons, colours and standalone display, and a service worker', async () => {
    await page.getByRole('button', { name: 'New thread', exact: true }).first().click();
    api!.script({ text: 'Oslo is the capital of **Norway**.' });
    await box().fill('Capital of Norway?');
    await box().press('Enter');
    await messages().getByText('Oslo is the capital of').waitFor({ timeout: 20_000 });
    // The worker installs after the page has loaded and takes over this page once the shell is stored.
    await expect.poll(isControlled, { timeout: 60_000 }).toBe(true);
    const manifest = (await cdp.send('Page.getAppManifest')) as {
      errors: unknown[];
      parsed?: { name?: string; display?: string; themeColor?: unknown; icons?: { sizes?: string[] }[] };
    };
    expect(manifest.errors).toEqual([]);
    const body = JSON.parse(await (await page.request.get(`${app!.url}/manifest.webmanifest`)).text()) as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({ name: 'MCP Agent', display: 'standalone', theme_color: '#4f46e5' });
    for (const size of ['192', '512']) {
      const icon = await page.request.get(`${app!.url}/icons/icon-${size}.png`);
      expect(icon.status()).toBe(200);
      expect(icon.headers()['content-type']).toBe('image/png');
    }
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors.map((error) => error.errorId)).toEqual([]);
  });

  it('opens offline after a reload, with its stored threads readable, and says sending needs a connection', async () => {
    await setOffline(true);
    await page.reload();
    await nav().getByRole('button', { name: 'Capital of Norway?', exact: true }).click({ timeout: 30_000 });
    await messages().getByText('Oslo is the capital of').waitFor({ timeout: 20_000 });
    await offlineNote().waitFor();
    const requestsBefore = api!.requests.length;
    await box().fill('And of Sweden?');
    await box().press('Enter');
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    expect(await box().inputValue()).toBe('And of Sweden?'); // nothing typed is lost
    expect(api!.requests.length).toBe(requestsBefore);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/offline-thread.png` });

    // Back online: the note goes and the message is sent.
    await setOffline(false);
    await offlineNote().waitFor({ state: 'detached' });
    api!.script({ text: 'Stockholm.' });
    await box().press('Enter');
    await messages().getByText('Stockholm.').waitFor({ timeout: 20_000 });
  });

  it("keeps only the app's own files: no model API answer, no app-config.json, no code sandbox", async () => {
    const urls = await cachedUrls();
    expect(urls.length).toBeGreaterThan(5);
    expect(urls.every((url) => url.startsWith(`${app!.url}/`))).toBe(true);
    expect(urls.filter((url) => /\/v1\/|app-config\.json|\/sandbox\/|\.map$/.test(url))).toEqual([]);
    expect(urls).toContain(`${app!.url}/index.html`);
  });

  it('a new deploy is offered as a new version, and taken when the person reloads into it', async () => {
    // The deploy: a changed page (a marker) and so a new sw.js version, as the build would write them.
    const page1 = join(deployDir, 'index.html');
    await writeFile(page1, (await readFile(page1, 'utf8')).replace('<head>', '<head><meta name="deploy" content="2">'));
    const worker = join(deployDir, 'sw.js');
    await writeFile(worker, (await readFile(worker, 'utf8')).replace(/"version":"(\w+)"/, '"version":"$1-2"'));

    await page.reload();
    const note = page.getByRole('status', { name: 'App update' });
    await note.waitFor({ timeout: 60_000 });
    expect(await note.textContent()).toContain('A new version of MCP Agent is ready.');
    // Until the person chooses, the old version keeps running.
    expect(await page.locator('meta[name="deploy"]').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/offline-update-ready.png` });
    await Promise.all([
      page.waitForEvent('load', { timeout: 60_000 }),
      note.getByRole('button', { name: 'Reload to update' }).click(),
    ]);
    await page.locator('meta[name="deploy"]').waitFor({ state: 'attached', timeout: 30_000 });
    await nav().getByRole('button', { name: 'Capital of Norway?', exact: true }).waitFor({ timeout: 30_000 });
    expect(await note.count()).toBe(0);
    expect(opened!.pageErrors).toEqual([]);
  });
});
