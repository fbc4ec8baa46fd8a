/** Hostile model text and tool output render inert under the built page's CSP: no script runs, no unsafe link or remote image. */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { startServerEverything } from '../fixtures/server-everything';
import { startAppServer, type AppServer } from './app-server';
import { addServer } from './app-steps';
import { launchChromium, type LaunchedChromium } from './browser';

const HOSTILE = [
  'Hello <script>window.__pwned = "script"</script>',
  '<img src="x" onerror="window.__pwned = \'onerror\'">',
  '<a href="javascript:window.__pwned=\'href\'">html link</a>',
  '[md link](javascript:window.__pwned=1) and [data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '![tracker](http://127.0.0.1:9/pixel.png) <iframe src="javascript:alert(1)"></iframe>',
  '<svg onload="window.__pwned=\'svg\'"></svg> **bold stays bold**',
].join('\n\n');

let app: AppServer | undefined;
let browser: LaunchedChromium | undefined;
let api: FakeAnthropic | undefined;
let tools: Awaited<ReturnType<typeof startServerEverything>> | undefined;
let page: Page;

describe('untrusted text is rendered inert', () => {
  const dialogs: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    [api, tools, app] = await Promise.all([
      startFakeAnthropic(),
      startServerEverything({ mode: 'streamableHttp' }),
      startAppServer(),
    ]);
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(app.url);
    await page.getByLabel('API key').fill('sk-ant-xss');
    await page.getByRole('textbox', { name: 'Base URL' }).fill(api.url);
    await page.getByRole('button', { name: 'Save' }).click();
    await addServer(page, 'Tools', tools.url, { keepOpen: true });
    await page.getByRole('button', { name: 'New thread', exact: true }).click();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await api?.stop();
    await tools?.stop();
  });

  it('model text with HTML, scripts, handlers and unsafe links runs nothing and links nowhere unsafe', async () => {
    api!.script({ text: HOSTILE });
    await page.getByRole('textbox', { name: 'Message' }).fill('Say something nasty');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    // Scoped to the messages: the thread list also shows the start of the latest answer.
    await page.getByRole('list', { name: 'Messages' }).getByText('bold stays bold').waitFor({ timeout: 15_000 });
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    const answer = page.getByRole('list', { name: 'Messages' });
    expect(await answer.locator('script, iframe, svg, img[src^="http"]').count()).toBe(0);
    const hrefs = await answer.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.filter((href) => /^(javascript|data):/i.test(href))).toEqual([]);
    expect(await answer.locator('strong', { hasText: 'bold stays bold' }).count()).toBe(1);
    expect(requests.some((url) => url.includes('pixel.png'))).toBe(false);
  });

  it('tool output with HTML is shown as text in the tool card', async () => {
    await page.getByRole('switch', { name: 'Tools', exact: true }).check();
    const payload = `<img src=x onerror="window.__pwned='tool'"><script>window.__pwned='tool-script'</script>`;
    api!.script({ toolUses: [{ name: 'mcp__tools__echo', input: { message: payload } }] }, { text: 'Echoed.' });
    await page.getByRole('textbox', { name: 'Message' }).fill('Echo this');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await page.getByRole('button', { name: 'Allow once' }).click({ timeout: 15_000 });
    await page.getByRole('list', { name: 'Messages' }).getByText('Echoed.').waitFor({ timeout: 15_000 });
    await page.getByRole('list', { name: 'Messages' }).locator('summary', { hasText: 'echo' }).click();
    await page.getByText(`Echo: ${payload}`).waitFor(); // the markup is visible as text
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});
