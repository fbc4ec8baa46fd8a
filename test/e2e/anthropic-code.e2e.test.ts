/**
 * Anthropic's programmatic tool calling in the production build, in real Chromium (issue #18 item 3): the "code"
 * setting chosen in Settings (Anthropic) and overridden in a thread (off); the API's code execution calls the
 * weather tool, each call asked about "called from code" like any other, and the code's card shows the Python, its
 * nested calls and what it printed. Fake Messages API and an SDK-built MCP server, both on 127.0.0.1.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import type { TestMcpServer } from '../fixtures/test-mcp-server';
import { meanOf, startWeatherServer } from '../fixtures/weather-mcp-server';
import { openAppPage, saveKeyAndBaseUrl } from './app-page';
import { openSettingsAdvanced } from './settings-steps';
import { startAppServer, type AppServer } from './app-server';
import type { LaunchedChromium } from './browser';

const TOOL = 'mcp__weather__forecast';
const SHOTS = 'test-results/screenshots';
const PYTHON = 'for city in ["Oslo", "Lima"]:\n    print(city, await forecast(city=city))';
let weather: TestMcpServer | undefined;
let api: FakeAnthropic | undefined;
let app: AppServer | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;

const messages = () => page.getByRole('list', { name: 'Messages' });
const forecastCalls = () => weather!.requests.filter((r) => r.rpcMethod === 'tools/call').length;

async function send(text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
}

describe("Anthropic's programmatic tool calling in the browser", () => {
  beforeAll(async () => {
    [weather, api, app] = await Promise.all([startWeatherServer(), startFakeAnthropic(), startAppServer()]);
    const appConfig = {
      servers: [{ id: 'weather', name: 'Weather', url: weather.url }],
      defaults: { toolSearch: { deferral: 'never' } },
    };
    ({ browser, page } = await openAppPage(app.url, { appConfig }));
    await saveKeyAndBaseUrl(page, 'sk-ant-anthropic-code-e2e', api.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await api?.stop();
    await weather?.stop();
  });

  it('with Code set to Anthropic in Settings, the code’s calls are approved here and shown on its card', async () => {
    await openSettingsAdvanced(page); // Code is under Advanced settings, which the first Save left folded
    await page.getByRole('combobox', { name: 'Code', exact: true }).selectOption('anthropic');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    if ((await page.getByRole('button', { name: 'Settings' }).getAttribute('aria-pressed')) === 'true')
      await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'New thread', exact: true }).first().click();
    await page.getByRole('group', { name: 'Servers in this thread' }).getByRole('switch', { name: 'Weather' }).click();
    await page.locator('input[role="switch"][aria-label="Weather"]:checked').waitFor({ timeout: 15_000 });

    api!.script(
      { code: { source: PYTHON, calls: [{ name: TOOL, input: { city: 'Oslo' } }] } },
      { code: { calls: [{ name: TOOL, input: { city: 'Lima' } }] } },
      (request) => ({
        code: { stdout: `Oslo ${meanOf('Oslo')}\nLima ${meanOf('Lima')}\n` },
        text: `Compared (${request.body.container === 'container_fake_0001' ? 'same container' : 'container lost'}).`,
      }),
    );
    await send('Compare Oslo and Lima');
    const approval = page.getByRole('region', { name: 'Approve forecast' });
    await approval.waitFor({ timeout: 30_000 });
    expect(await approval.textContent()).toContain('called from code');
    expect(await approval.textContent()).toContain('Oslo');
    await approval.getByRole('button', { name: 'Allow for this thread' }).click();
    await messages().getByText('Compared (same container).').waitFor({ timeout: 60_000 });
    expect(forecastCalls()).toBe(2);
    // The request offered the API's code execution and let the code call the weather tool; no execute_code.
    const first = api!.requests.at(-3)!;
    expect(first.toolNames).toContain('code_execution');
    expect(first.toolNames).not.toContain('execute_code');
    const card = messages().locator('details.code-card').first();
    // The API's run has no tool_result of ours: the card reads "done" from the turn's trace, saved as the turn ends,
    // which may be a moment after the answer's last words show.
    await card
      .locator('summary')
      .first()
      .filter({ hasText: /in Anthropic.s container.*done · 2 tool calls/ })
      .waitFor({ timeout: 15_000 });
    expect(await card.locator('.code-source summary').textContent()).toContain('Python');
    expect(await card.locator('pre.code-text').textContent()).toBe(PYTHON);
    expect(await card.locator('.inner-calls > li').count()).toBe(2);
    expect(await card.locator('pre.code-logs').textContent()).toBe(`Oslo ${meanOf('Oslo')}\nLima ${meanOf('Lima')}`);
    // The code's calls are inside its card, not cards of their own.
    expect(await messages().locator('details.tool-card:not(.inner-call):not(.code-card)').count()).toBe(0);
    // The turn's trace lists the code run and its two calls, made from code.
    await page
      .getByRole('button', { name: /^Trace/ })
      .last()
      .click();
    const trace = page.getByRole('region', { name: 'Trace of this turn' });
    expect(await trace.textContent()).toContain("Code in Anthropic's container");
    expect(await trace.getByText('Tool call from code').count()).toBe(2);
    await mkdir(SHOTS, { recursive: true });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/anthropic-code-card.png` });
  });

  it('the thread’s own Code setting (off) wins over Settings: no code tool is offered', async () => {
    await page.getByRole('button', { name: 'Thread menu' }).click(); // The thread's settings are under it.
    await page.getByText('Thread settings', { exact: true }).click();
    await page.getByRole('combobox', { name: 'Code', exact: true }).selectOption('off');
    await page.getByRole('button', { name: 'Save thread settings' }).click();
    await page.getByText('Saved for this thread.').waitFor();
    await page.getByRole('button', { name: 'Thread menu' }).click();
    api!.script({ text: 'No code this time.' });
    await send('Just answer');
    await messages().getByText('No code this time.').waitFor({ timeout: 30_000 });
    const last = api!.requests.at(-1)!;
    expect(last.toolNames).toContain(TOOL);
    expect(last.toolNames).not.toContain('code_execution');
    expect(last.toolNames).not.toContain('execute_code');
    expect(last.body.container).toBeUndefined();
  });
});
