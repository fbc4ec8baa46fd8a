/** Issue #15 item 8: no other page can frame the app, whether its host sends the security headers or none at all. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../../../src/domain/security-headers';
import { startBareStaticHost, startFramingPage, type StartedHost } from '../../fixtures/hostile/framing-hosts';
import { OUT_DIR, ROOT, startAppServer, type AppServer } from '../app-server';
import { launchChromium, type LaunchedChromium } from '../browser';

let app: AppServer | undefined;
let bare: StartedHost | undefined;
const framers: StartedHost[] = [];
let browser: LaunchedChromium | undefined;

/** Loads a page of another origin that frames `target`; resolves with the page and the frame once it has loaded. */
async function frameFromAnotherOrigin(target: string): Promise<{ page: Page; frame: Frame }> {
  const framer = await startFramingPage(target);
  framers.push(framer);
  const page = await browser!.context.newPage();
  await page.goto(framer.url);
  const element = await page.waitForSelector('#victim');
  await page.waitForFunction(() => document.readyState === 'complete');
  const frame = await element.contentFrame();
  if (!frame) throw new Error('the iframe has no frame');
  return { page, frame };
}

describe('framing (clickjacking)', () => {
  beforeAll(async () => {
    app = await startAppServer();
    bare = await startBareStaticHost(join(ROOT, OUT_DIR));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([app?.close(), bare?.stop(), ...framers.map((f) => f.stop())]);
  });

  it('npm run preview sends every security header, and the build ships them as _headers', async () => {
    const response = await fetch(app!.url);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response.headers.get(name)).toBe(value);
    const shipped = await readFile(join(ROOT, OUT_DIR, '_headers'), 'utf8');
    expect(shipped).toContain("frame-ancestors 'none'");
    expect(shipped).toContain('X-Frame-Options: DENY');
  });

  it('with the headers, the browser refuses to show the app inside another page', async () => {
    const { page, frame } = await frameFromAnotherOrigin(app!.url);
    // Chromium replaces a frame it refuses with its own error page: the app never loads there.
    expect(frame.url()).toMatch(/^chrome-error:/);
    expect(await frame.locator('textarea, input').count()).toBe(0);
    await page.close();
  });

  it('without any header, the framed app shows only why and a link to open it in its own tab', async () => {
    const { page, frame } = await frameFromAnotherOrigin(bare!.url);
    const link = frame.getByRole('link', { name: 'Open MCP Agent in its own tab' });
    await link.waitFor();
    expect(await frame.getByRole('alert').textContent()).toContain('does not run inside another page');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await frame.locator('textarea, input, button').count()).toBe(0);
    // Nothing started: the framed copy opened no database of its own.
    expect(await frame.evaluate(async () => (await indexedDB.databases()).length)).toBe(0);
    await page.close();
  });

  it('the same bare host, opened in a tab of its own, runs the app', async () => {
    const page = await browser!.context.newPage();
    await page.goto(bare!.url);
    await page.getByLabel('API key').waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'does not run inside another page' }).count()).toBe(0);
    await page.close();
  });
});
