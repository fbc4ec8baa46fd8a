/**
 * Issue #24 item 1, in Chromium against the production build: the deployer's app-config.json names a server registry
 * (a fixture on 127.0.0.1 speaking the MCP Registry API); the person finds a server there, adds it, and uses a tool.
 * A registry entry with a javascript: URL is left out with its reason; a registry that answers HTML says so.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { remoteEntry, startRegistryFixture, type RegistryFixture } from '../fixtures/registry-server';
import { startTestMcpServer, type TestMcpServer } from '../fixtures/test-mcp-server';
import { openAppPage, saveKeyAndBaseUrl } from './app-page';
import { startAppServer, type AppServer } from './app-server';
import type { LaunchedChromium } from './browser';

let app: AppServer | undefined;
let api: FakeAnthropic | undefined;
let mcp: TestMcpServer | undefined;
let registry: RegistryFixture | undefined;
let htmlRegistry: RegistryFixture | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;
let pageErrors: string[] = [];

const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message' });

describe("Find servers in the deployer's registry", () => {
  beforeAll(async () => {
    [api, mcp, app] = await Promise.all([startFakeAnthropic(), startTestMcpServer(), startAppServer()]);
    registry = await startRegistryFixture({
      servers: [
        remoteEntry('io.github.someone/calculator', mcp.url, { title: 'Calculator', description: 'Adds numbers.' }),
        remoteEntry('io.example/trap', 'javascript:alert(document.domain)', { title: 'Trap' }),
        {
          name: 'io.example/local-only',
          title: 'Local only',
          packages: [{ registryType: 'npm', identifier: 'x-mcp' }],
        },
        ...Array.from({ length: 40 }, (_, i) => remoteEntry(`io.example/filler-${i}`, `https://f${i}.example.com/mcp`)),
      ],
    });
    htmlRegistry = await startRegistryFixture({ servers: [], mode: 'html' });
    ({ browser, page, pageErrors } = await openAppPage(app.url, {
      appConfig: { discovery: { enabled: true, endpoint: registry.url } },
    }));
    await saveKeyAndBaseUrl(page, 'sk-ant-directory', api.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await api?.stop();
    await mcp?.stop();
    await registry?.stop();
    await htmlRegistry?.stop();
  });

  it('lists the registry page by page, searches as the person types, and leaves out what cannot be used', async () => {
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.getByRole('button', { name: 'Find servers' }).click();
    const results = page.getByRole('list', { name: 'Directory results' });
    // The first page holds 30 entries, one of them left out.
    await page.getByText('29 servers found so far.').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByText('42 servers found.').waitFor({ timeout: 30_000 });
    const leftOut = page.locator('details', { hasText: 'left out' });
    await leftOut.locator('summary').click();
    await leftOut.getByText('io.example/trap: its URL must use https:// (got javascript:)').waitFor();
    await results
      .getByRole('listitem', { name: 'Local only' })
      .getByText('Needs a local process (npm x-mcp): it cannot be added in a browser.')
      .waitFor();

    await page.getByRole('searchbox', { name: 'Search the server directory' }).fill('calc');
    await page.getByText('1 server found.').waitFor({ timeout: 30_000 });
    const calculator = results.getByRole('listitem', { name: 'Calculator' });
    expect(await calculator.textContent()).toContain('published by io.github.someone');
    expect(registry!.queries.at(-1)?.get('search')).toBe('calc');
    await page.screenshot({ path: 'test-results/screenshots/directory-search.png', fullPage: true });
  });

  it('Add fills the server form; the added server connects and its tool answers in a thread', async () => {
    await page.getByRole('button', { name: 'Add Calculator' }).click();
    const form = page.getByRole('form', { name: 'Add a server' });
    expect(await form.getByRole('textbox', { name: 'Server name' }).inputValue()).toBe('Calculator');
    expect(await form.getByRole('textbox', { name: 'Server URL' }).inputValue()).toBe(mcp!.url);
    await form.getByRole('button', { name: 'Add server' }).click();
    await page
      .getByRole('listitem', { name: 'Calculator' })
      .getByText('Connected', { exact: true })
      .first()
      .waitFor({ timeout: 30_000 });
    // The directory now says the entry is added, instead of offering Add again (which the name check would refuse).
    const results = page.getByRole('list', { name: 'Directory results' });
    await results.getByText('Added: it is your server “Calculator” (same address).').waitFor();
    expect(await results.getByRole('button', { name: 'Add Calculator' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Servers' }).click();
    api!.script({ toolUses: [{ name: 'mcp__calculator__add', input: { a: 2, b: 3 } }] }, { text: 'It is 5.' });
    await page.getByRole('button', { name: 'New thread', exact: true }).click();
    await page.getByRole('switch', { name: 'Calculator', exact: true }).check();
    await box().fill('Use @add for 2+3 please');
    await box().press('Enter');
    await page.getByRole('button', { name: 'Allow once' }).click({ timeout: 30_000 });
    await messages().getByText('It is 5.').waitFor({ timeout: 30_000 });
    const toolResult = api!.requests.at(-1)!.body.messages.at(-1)!;
    expect(JSON.stringify(toolResult.content)).toContain('2+3=5');
    expect(pageErrors).toEqual([]);
  });

  it('a registry that answers HTML says so, and the page stays usable', async () => {
    const other = await openAppPage(app!.url, {
      appConfig: { discovery: { enabled: true, endpoint: htmlRegistry!.url } },
    });
    try {
      await other.page.getByRole('button', { name: 'Servers' }).click();
      await other.page.getByRole('button', { name: 'Find servers' }).click();
      await other.page
        .getByRole('alert')
        .getByText(`The registry at ${htmlRegistry!.url} did not answer with JSON; is it a registry?`)
        .waitFor({ timeout: 30_000 });
      expect(other.pageErrors).toEqual([]);
    } finally {
      await other.browser.close();
    }
  });
});
