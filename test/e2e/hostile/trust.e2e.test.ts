/**
 * Issue #15 item 2 in the production build: "Always allow" given to "Files" at one origin does not pass to a new
 * "Files" at another origin added after the first was removed. Two SDK-built MCP servers on two 127.0.0.1 ports.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../../fakes/fake-anthropic';
import { startTestMcpServer, type TestMcpServer } from '../../fixtures/test-mcp-server';
import { openAppPage, type AppPage, saveKeyAndBaseUrl } from '../app-page';
import { startAppServer, type AppServer } from '../app-server';
import { launchChromium } from '../browser';

const SHOTS = 'test-results/screenshots';
const APP_CONFIG = { defaults: { model: 'claude-sonnet-5', toolSearch: { deferral: 'never' } } };
let first: TestMcpServer | undefined;
let second: TestMcpServer | undefined;
let api: FakeAnthropic | undefined;
let app: AppServer | undefined;
let opened: AppPage | undefined;
let page: Page;

const origin = (server: TestMcpServer | undefined) => new URL(server!.url).origin;
const calls = (server: TestMcpServer | undefined) =>
  server!.requests.filter((r) => r.rpcMethod === 'tools/call').length;
const card = () => page.locator('.approval');
const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message' });

async function startFiles(): Promise<TestMcpServer> {
  const server = await startTestMcpServer();
  server.addTool('delete_file', 'Deletes a file');
  return server;
}

async function toggleServers(): Promise<void> {
  await page.getByRole('button', { name: 'Servers' }).click();
}

async function addFiles(url: string): Promise<void> {
  await toggleServers();
  await page.getByRole('textbox', { name: 'Server name' }).fill('Files');
  await page.getByRole('textbox', { name: 'Server URL' }).fill(url);
  await page.getByRole('button', { name: 'Add server' }).click();
  await page.getByRole('listitem', { name: 'Files' }).filter({ hasText: 'Connected' }).waitFor({ timeout: 15_000 });
  await toggleServers();
}

/** The model calls the thread's delete_file, whatever id its server has, then answers `answer`. */
function scriptDelete(answer: string): void {
  api!.script(
    (request) => ({
      toolUses: [{ name: request.toolNames.find((n) => n.endsWith('__delete_file'))!, input: { path: 'notes.txt' } }],
    }),
    { text: answer },
  );
}

async function send(text: string): Promise<void> {
  await box().fill(text);
  await box().press('Enter');
}

async function alwaysAllowedList(): Promise<string[]> {
  await page.getByRole('button', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Always allowed' });
  await section.getByText(/Tools that run without asking/).waitFor();
  await section.getByRole('status').waitFor({ state: 'detached' });
  const rows = await section.getByRole('listitem').allTextContents();
  const empty = await section.getByText('No tool is always allowed.').count();
  await page.screenshot({ path: `${SHOTS}/trust-always-allowed-${rows.length}.png` });
  await page.getByRole('button', { name: 'Settings' }).click();
  return empty ? [] : rows;
}

describe('trust does not pass to another origin that reuses a server name', () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    [first, second, api, app] = await Promise.all([startFiles(), startFiles(), startFakeAnthropic(), startAppServer()]);
    opened = await openAppPage(app.url, { appConfig: APP_CONFIG });
    page = opened.page;
    await saveKeyAndBaseUrl(page, 'sk-ant-trust-e2e', api.url);
  });

  afterAll(async () => {
    await opened?.browser.close();
    await app?.close();
    await api?.stop();
    await first?.stop();
    await second?.stop();
  });

  it('route (a): Always allow at one origin; removed and re-added at another, the server is off and asks again', async () => {
    await addFiles(first!.url);
    await page.getByRole('button', { name: 'New thread', exact: true }).first().click();
    await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
    await page.getByRole('switch', { name: 'Files', exact: true }).check();

    scriptDelete('Deleted it.');
    await send('Delete notes.txt');
    await card().waitFor({ timeout: 15_000 });
    expect(await card().textContent()).toContain(origin(first));
    await card().getByRole('button', { name: 'Always allow' }).click();
    await messages().getByText('Deleted it.').waitFor({ timeout: 15_000 });
    expect(calls(first)).toBe(1);
    expect(await alwaysAllowedList()).toEqual([expect.stringContaining(`delete_file of Files at ${origin(first)}`)]);

    // Always allowed: the next call runs without a card.
    scriptDelete('Deleted again.');
    await send('And once more');
    await messages().getByText('Deleted again.').waitFor({ timeout: 15_000 });
    expect(calls(first)).toBe(2);
    expect(await card().count()).toBe(0);

    await toggleServers();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove Files' }).click();
    await page.getByRole('listitem', { name: 'Files' }).waitFor({ state: 'detached' });
    await toggleServers();
    await addFiles(second!.url);

    // The old thread: the new "Files" is not on in it.
    const files = page.getByRole('switch', { name: 'Files', exact: true });
    await files.waitFor();
    expect(await files.isChecked()).toBe(false);
    expect(await alwaysAllowedList()).toEqual([]);

    // Switched on by the person, its delete_file asks, naming the second origin; denied, it never runs.
    await files.check();
    scriptDelete('I was not allowed.');
    await send('Delete notes.txt there');
    await card().waitFor({ timeout: 15_000 });
    expect(await card().textContent()).toContain(origin(second));
    await page.screenshot({ path: `${SHOTS}/trust-asks-again.png` });
    await card().getByRole('button', { name: 'Deny' }).click();
    await messages().getByText('I was not allowed.').waitFor({ timeout: 15_000 });
    expect(calls(second)).toBe(0);
    expect(calls(first)).toBe(2);
    expect(opened!.pageErrors).toEqual([]);
  });

  it('approvals stored by the previous version (no origin) are dropped on upgrade, with a notice shown once', async () => {
    const browser = await launchChromium();
    try {
      const seeding = browser.context.pages()[0] ?? (await browser.context.newPage());
      // The app's address without the app: a blank page of its origin, to write the database as version 2 left it.
      await seeding.route(`${app!.url}/`, (route) => route.fulfill({ contentType: 'text/html', body: '<p>seed</p>' }));
      await seeding.goto(`${app!.url}/`);
      await seeding.evaluate(writeVersion2Database);
      await seeding.unroute(`${app!.url}/`);
      await seeding.route('**/app-config.json', (route) =>
        route.fulfill({ contentType: 'application/json', body: JSON.stringify(APP_CONFIG) }),
      );
      await seeding.goto(app!.url);
      const notice = seeding.getByRole('status').filter({ hasText: 'Some approvals were removed' });
      await notice.waitFor({ timeout: 15_000 });
      const text = (await notice.textContent()) ?? '';
      expect(text).toContain('delete_file of server files (Always allowed)');
      expect(text).toContain('move_file of server files (Allowed in thread "Clean up")');
      await seeding.screenshot({ path: `${SHOTS}/trust-dropped-approvals-notice.png` });
      await seeding.reload();
      await seeding.getByRole('button', { name: 'Settings' }).waitFor();
      await seeding.getByText('Clean up').first().waitFor();
      expect(await seeding.getByText('Some approvals were removed').count()).toBe(0);
    } finally {
      await browser.close();
    }
  });
});

/** In the page: the app's database at version 2 (its stores as migrations 1 and 2 made them), with bare-hash approvals. */
function writeVersion2Database(): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open('mcp-agent', 2);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore('meta', { keyPath: 'key' });
      db.createObjectStore('appConfig', { keyPath: 'key' });
      db.createObjectStore('profiles', { keyPath: 'id' });
      db.createObjectStore('servers', { keyPath: ['profileId', 'id'] }).createIndex('byProfile', 'profileId');
      const threads = db.createObjectStore('threads', { keyPath: 'id' });
      threads.createIndex('byProfile', 'profileId');
      threads.createIndex('byProfileUpdated', ['profileId', 'updatedAt']);
      db.createObjectStore('messages', { keyPath: 'id' }).createIndex('byThreadSeq', ['threadId', 'seq'], {
        unique: true,
      });
      const credentials = db.createObjectStore('credentials', { keyPath: ['profileId', 'owner', 'slot'] });
      credentials.createIndex('byOwner', ['profileId', 'owner']);
      credentials.createIndex('byProfile', 'profileId');
      db.createObjectStore('vaultKeys', { keyPath: 'profileId' });
      db.createObjectStore('catalog', { keyPath: ['profileId', 'serverId'] }).createIndex('byProfile', 'profileId');
    };
    request.onerror = () => reject(new Error(String(request.error)));
    request.onsuccess = () => {
      const db = request.result;
      const tx = db.transaction(['profiles', 'threads', 'meta'], 'readwrite');
      tx.objectStore('profiles').put({
        id: 'p1',
        name: 'Me',
        createdAt: 1,
        defaultServerIds: [],
        preferences: { theme: 'system', toolSearch: {} },
        alwaysAllow: { 'files/delete_file': 'hash-1' },
        appServerToolOverrides: {},
      });
      tx.objectStore('threads').put({
        id: 't1',
        profileId: 'p1',
        title: 'Clean up',
        createdAt: 1,
        updatedAt: 2,
        enabledServerIds: [],
        loadedTools: [],
        pinnedTools: [],
        approvals: { 'files/move_file': 'hash-2' },
      });
      tx.objectStore('meta').put({ key: 'activeProfileId', value: 'p1' });
      tx.oncomplete = () => (db.close(), resolve());
      tx.onerror = () => reject(new Error(String(tx.error)));
    };
  });
}
