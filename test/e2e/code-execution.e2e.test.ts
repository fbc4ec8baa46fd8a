/**
 * Programmatic tool calling in the production build, in real Chromium (issue #18): the model's execute_code call
 * runs in the opaque-origin sandbox frame, its five forecast calls go through the person's approval ("called from
 * code"; "Allow for this thread" covers the rest), only the means go back to the model, the cards survive a reload,
 * Stop ends an endless loop at once, and the sandbox reaches no server. Fake Messages API and an SDK-built MCP
 * server, both on 127.0.0.1.
 */
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { listenOnLoopback, type LoopbackListener } from '../fixtures/listen-loopback';
import type { TestMcpServer } from '../fixtures/test-mcp-server';
import { FIVE_CITIES, fiveCityCode, meanOf, startWeatherServer } from '../fixtures/weather-mcp-server';
import { openAppPage, saveKeyAndBaseUrl } from './app-page';
import { startAppServer, type AppServer } from './app-server';
import type { LaunchedChromium } from './browser';

const TOOL = 'mcp__weather__forecast';
const SHOTS = 'test-results/screenshots';
let weather: TestMcpServer | undefined;
let api: FakeAnthropic | undefined;
let app: AppServer | undefined;
let browser: LaunchedChromium | undefined;
let listener: LoopbackListener | undefined;
let hits = 0;
let page: Page;
let pageErrors: string[] = [];

const messages = () => page.getByRole('list', { name: 'Messages' });
const forecastCalls = () => weather!.requests.filter((r) => r.rpcMethod === 'tools/call').length;
const codeCards = () => messages().locator('details.code-card');

async function send(text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
}

describe('execute_code in the browser', () => {
  beforeAll(async () => {
    [weather, api, app, listener] = await Promise.all([
      startWeatherServer(),
      startFakeAnthropic(),
      startAppServer(),
      listenOnLoopback(createServer((_req, res) => void (hits++, res.end('reached')))),
    ]);
    const appConfig = {
      servers: [{ id: 'weather', name: 'Weather', url: weather.url }],
      defaults: { toolSearch: { deferral: 'never' } },
    };
    ({ browser, page, pageErrors } = await openAppPage(app.url, { appConfig }));
    await saveKeyAndBaseUrl(page, 'sk-ant-code-e2e', api.url);
    if ((await page.getByRole('button', { name: 'Settings' }).getAttribute('aria-pressed')) === 'true')
      await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'New thread', exact: true }).first().click();
    // The switch follows the stored state, which a busy machine writes a moment after the click.
    const weatherSwitch = page
      .getByRole('group', { name: 'Servers in this thread' })
      .getByRole('switch', { name: 'Weather' });
    await weatherSwitch.click();
    await page.locator('input[role="switch"][aria-label="Weather"]:checked').waitFor({ timeout: 15_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await api?.stop();
    await weather?.stop();
    await listener?.close();
  });

  it('runs the five-city code with approval of its inner calls, and only the means reach the model', async () => {
    api!.script({ toolUses: [{ name: 'execute_code', input: { code: fiveCityCode(TOOL) } }] }, (request) => ({
      text: `Means: ${JSON.stringify(request.body.messages.at(-1)).includes('"Oslo') ? 'received' : 'missing'}.`,
    }));
    await send('Compare the weather in five cities');
    const approval = page.getByRole('region', { name: 'Approve forecast' });
    await approval.waitFor({ timeout: 30_000 });
    expect(await approval.textContent()).toContain('called from code');
    expect(await approval.textContent()).toContain('Oslo');
    // The code's card says what it waits for, and lists the call as it is made.
    await expect
      .poll(() => codeCards().first().locator('summary').first().textContent())
      .toMatch(/waiting for your approval of a call… · 1 tool call/);
    expect(await codeCards().first().locator('.inner-calls > li summary').textContent()).toMatch(
      /Weather · forecast waiting for your approval…/,
    );
    await approval.getByRole('button', { name: 'Allow for this thread' }).click();
    await messages().getByText('Means: received.').waitFor({ timeout: 60_000 });
    expect(forecastCalls()).toBe(5);
    expect(api!.requests[0]?.toolNames).toContain('execute_code');
    const sent = JSON.stringify(api!.requests.at(-1)?.body.messages.at(-1));
    for (const city of FIVE_CITIES) expect(sent).toContain(`\\"${city}\\":${meanOf(city)}`);
    expect(sent).not.toContain('station'); // The forecasts themselves stayed out of the context.
    const card = codeCards().first();
    expect(await card.locator('summary').first().textContent()).toMatch(/done · 5 tool calls/);
    expect(await card.locator('.inner-calls > li').count()).toBe(5);
    expect(await card.locator('pre.code-text').textContent()).toContain(`tools["${TOOL}"]`);
    expect(await card.textContent()).toContain('checked 5 cities');
    await mkdir(SHOTS, { recursive: true });
    await card.locator('.inner-calls > li').first().locator('summary').click();
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/code-card-desktop.png` });
  });

  it('Stop ends code stuck in an endless loop at once, and the page stays usable', async () => {
    const before = forecastCalls();
    api!.script({
      toolUses: [
        { name: 'execute_code', input: { code: `await tools["${TOOL}"]({ city: "Oslo" });\nwhile (true) {}` } },
      ],
    });
    await send('Loop forever');
    await expect.poll(forecastCalls, { timeout: 30_000 }).toBe(before + 1); // allowed for this thread: no question
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect
      .poll(() => codeCards().nth(1).locator('summary').first().textContent(), { timeout: 15_000 })
      .toMatch(/stopped · 1 tool call/);
    await page.getByRole('button', { name: 'Send' }).waitFor();
    expect(await page.locator('iframe[title="Code sandbox"]').count()).toBe(0);
    expect(api!.pendingTurns).toBe(0);
  });

  it('a call the code is waiting on shows as running, and as stopped after Stop', async () => {
    const started = weather!.slowCallsStarted;
    api!.script({
      toolUses: [{ name: 'execute_code', input: { code: `return await tools["mcp__weather__slow"]({ ms: 60000 });` } }],
    });
    await send('Wait for the slow one');
    const approval = page.getByRole('region', { name: 'Approve slow' });
    await approval.waitFor({ timeout: 30_000 });
    await approval.getByRole('button', { name: 'Allow once' }).click();
    await expect.poll(() => weather!.slowCallsStarted, { timeout: 30_000 }).toBe(started + 1);
    const card = codeCards().nth(2);
    await expect
      .poll(() => card.locator('summary').first().textContent(), { timeout: 15_000 })
      .toMatch(/running… · 1 tool call/);
    expect(await card.locator('.inner-calls > li summary').textContent()).toMatch(/Weather · slow running…/);
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect
      .poll(() => card.locator('summary').first().textContent(), { timeout: 15_000 })
      .toMatch(/stopped · 1 tool call/);
    expect(await card.locator('.inner-calls > li summary').textContent()).toMatch(/Weather · slow stopped · /);
    await page.getByRole('button', { name: 'Send' }).waitFor();
  });

  it('after a reload the code cards are there as stored', async () => {
    await page.reload();
    await messages().getByText('Means: received.').waitFor({ timeout: 30_000 });
    expect(await codeCards().count()).toBe(3);
    expect(await codeCards().first().locator('.inner-calls > li').count()).toBe(5);
    expect(await codeCards().nth(1).locator('summary').first().textContent()).toMatch(/stopped/);
    // The call the code was waiting on when it stopped is stored as stopped, not left out.
    expect(await codeCards().nth(2).locator('.inner-calls > li summary').textContent()).toMatch(/slow stopped/);
  });

  it('the sandbox reaches no server, no storage and not the page', async () => {
    const url = `http://127.0.0.1:${listener!.port}/`;
    const code = `
      const attempts = {
        fetch: () => fetch(${JSON.stringify(url)}),
        xhr: () => { const x = new XMLHttpRequest(); x.open('GET', ${JSON.stringify(url)}); x.send(); },
        websocket: () => new WebSocket(${JSON.stringify(url.replace('http', 'ws'))}),
        eventSource: () => new EventSource(${JSON.stringify(url)}),
        importScripts: () => importScripts(${JSON.stringify(url)}),
        indexedDB: () => indexedDB.open('mcp-agent'),
        caches: () => caches.open('x'),
        page: () => parent.document.title,
        prototypeFetch: () => Object.getPrototypeOf(self).fetch(${JSON.stringify(url)}),
      };
      const refused = {};
      for (const [name, attempt] of Object.entries(attempts)) {
        try { await attempt(); refused[name] = 'ran'; } catch (e) { refused[name] = 'refused'; }
      }
      return refused;`;
    api!.script({ toolUses: [{ name: 'execute_code', input: { code } }] }, (request) => ({
      text: `Sandbox said ${JSON.stringify(request.body.messages.at(-1)).match(/Returned value[^}]*}/)?.[0] ?? 'nothing'}`,
    }));
    await send('Try to get out');
    await messages()
      .getByText(/Sandbox said/)
      .waitFor({ timeout: 60_000 });
    const sent = JSON.stringify(api!.requests.at(-1)?.body.messages.at(-1));
    for (const name of [
      'fetch',
      'xhr',
      'websocket',
      'eventSource',
      'importScripts',
      'indexedDB',
      'caches',
      'page',
      'prototypeFetch',
    ])
      expect(sent).toContain(`\\"${name}\\":\\"refused\\"`);
    expect(hits).toBe(0);
    // The frame runs under its own policy (no connections); the page's own still has no eval.
    const frame = await fetch(`${app!.url}/sandbox/code-runner.html`);
    expect(frame.headers.get('content-security-policy')).toContain("connect-src 'none'");
    expect(frame.headers.get('x-frame-options')).toBeNull();
    const pageHeaders = await fetch(`${app!.url}/`);
    expect(pageHeaders.headers.get('content-security-policy')).not.toContain('unsafe-eval');
    expect(pageHeaders.headers.get('x-frame-options')).toBe('DENY');
  });

  it('raised no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
