/**
 * Issue #15 item 7, in Chromium against the production build: a server named "Anthropic" gets the id `anthropic`,
 * which was once the vault owner of the API key. Removing it (with its own bearer token) must not take the key along:
 * after a reload the next message still goes out with the key the person saved.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../../fakes/fake-anthropic';
import { startTestMcpServer, type TestMcpServer } from '../../fixtures/test-mcp-server';
import { openAppPage, saveKeyAndBaseUrl } from '../app-page';
import { startAppServer, type AppServer } from '../app-server';
import type { LaunchedChromium } from '../browser';

const API_KEY = `sk-ant-owner-e2e-${Date.now()}`;
const SERVER_TOKEN = `bearer-owner-e2e-${Date.now()}`;
let app: AppServer | undefined;
let api: FakeAnthropic | undefined;
let mcp: TestMcpServer | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;
let pageErrors: string[] = [];

const box = () => page.getByRole('textbox', { name: 'Message' });
const messages = () => page.getByRole('list', { name: 'Messages' });

describe('a server named "Anthropic" cannot take the API key with it', () => {
  beforeAll(async () => {
    [api, mcp, app] = await Promise.all([
      startFakeAnthropic({ apiKey: API_KEY }),
      startTestMcpServer({ requireBearer: SERVER_TOKEN }),
      startAppServer(),
    ]);
    ({ browser, page, pageErrors } = await openAppPage(app.url));
    await saveKeyAndBaseUrl(page, API_KEY, api.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await api?.stop();
    await mcp?.stop();
  });

  it('removing the server keeps the key: after a reload a message is answered with the saved key', async () => {
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.getByRole('textbox', { name: 'Server name' }).fill('Anthropic');
    await page.getByRole('textbox', { name: 'Server URL' }).fill(mcp!.url);
    await page.getByRole('combobox', { name: 'Authentication' }).selectOption('bearer');
    await page.getByLabel('Bearer token').fill(SERVER_TOKEN);
    await page.getByRole('button', { name: 'Add server' }).click();
    const item = page.getByRole('listitem', { name: 'Anthropic' });
    await item.getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 });

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove Anthropic' }).click();
    await item.waitFor({ state: 'detached' });

    await page.reload();
    api!.script({ text: 'The key is still here.' });
    await page.getByRole('button', { name: 'New thread', exact: true }).click();
    await box().fill('Is the key still stored?');
    await box().press('Enter');
    await messages().getByText('The key is still here.').waitFor({ timeout: 30_000 });
    // The fake was started to accept only the saved key (as x-api-key or a bearer token): one request, answered.
    expect(api!.requests).toHaveLength(1);
    const { headers } = api!.requests[0]!;
    expect(headers['x-api-key'] ?? headers.authorization?.replace(/^Bearer /, '')).toBe(API_KEY);
    expect(pageErrors).toEqual([]);
  });
});
