/**
 * First run in the production build (issue #22, item 3): only the key is asked for (advanced settings folded), Test
 * checks the base URL and key before anything is saved (a closed port and a refused key each say so), and the model
 * list follows the endpoint. Desktop and phone.
 */
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { openAppPage } from './app-page';
import { startAppServer, type AppServer } from './app-server';
import type { LaunchedChromium } from './browser';

const SHOTS = 'test-results/screenshots';
const KEY = 'sk-ant-first-run';
let app: AppServer | undefined;
let api: FakeAnthropic | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;
let pageErrors: string[] = [];
let consoleLines: string[] = [];

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` });
const status = () => page.locator('.connection-test [role="status"]');

/** A port on 127.0.0.1 that nothing listens on: bound, noted, released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('first run', () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    [api, app] = await Promise.all([
      startFakeAnthropic({
        apiKey: KEY,
        models: [
          { id: 'claude-endpoint-large', display_name: 'Large', created_at: '2026-05-01T00:00:00Z' },
          { id: 'claude-endpoint-small', display_name: 'Small', created_at: '2026-04-01T00:00:00Z' },
        ],
      }),
      startAppServer(),
    ]);
    ({ browser, page, pageErrors, consoleLines } = await openAppPage(app.url, {
      viewport: { width: 1280, height: 800 },
    }));
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await api?.stop();
  });

  it('asks only for the key: the model and tool-search settings are folded away', async () => {
    await page.getByText('Add your Anthropic API key to start chatting').waitFor();
    expect(await page.getByLabel('API key').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save' }).isVisible()).toBe(true);
    expect(await page.getByRole('spinbutton', { name: 'Preload count' }).isVisible()).toBe(false);
    expect(await page.getByRole('combobox', { name: 'Model' }).isVisible()).toBe(false);
    const save = await page.getByRole('button', { name: 'Save' }).boundingBox();
    expect(save && save.y + save.height).toBeLessThanOrEqual(800); // Save is in view without scrolling.
    await shot('first-run-1-desktop');
  });

  it('Send before a key is saved keeps the message and makes no thread; beside the box it says why, and the key field comes into view with the focus', async () => {
    const keyField = page.getByLabel('API key');
    const inView = () =>
      keyField.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      });
    // Settings scrolled down to its last section: the key field is out of view, as a person exploring would leave it.
    await page.getByRole('heading', { name: 'Threads backup' }).scrollIntoViewIfNeeded();
    await expect.poll(inView).toBe(false);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('hello without a key');
    await box.press('Enter');
    const note = page.getByRole('alert').filter({ hasText: 'Not sent: add your Anthropic API key in Settings' });
    await note.waitFor();
    await expect.poll(() => keyField.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await inView()).toBe(true);
    expect(await note.textContent()).toBe(
      'Not sent: add your Anthropic API key in Settings and Save it first. Your message stays here.',
    );
    // Next to the message box, in view.
    const noteBox = (await note.boundingBox())!;
    const boxBox = (await box.boundingBox())!;
    expect(noteBox.y + noteBox.height).toBeLessThanOrEqual(boxBox.y);
    expect(boxBox.y - (noteBox.y + noteBox.height)).toBeLessThan(40);
    expect(noteBox.y).toBeGreaterThanOrEqual(0);
    expect(await box.inputValue()).toBe('hello without a key');
    const threads = page.getByRole('navigation', { name: 'Threads' });
    expect(await threads.getByRole('listitem').count()).toBe(0);
    expect(await page.getByText('No API key is set.').count()).toBe(0);
    // The Send button says the same.
    await page.getByRole('button', { name: 'Send' }).click();
    expect(await box.inputValue()).toBe('hello without a key');
    expect(await threads.getByRole('listitem').count()).toBe(0);
    await shot('first-run-1a-send-without-key');
    await box.fill('');
  });

  it('the passphrase form puts each label above its field, as the other settings forms do', async () => {
    for (const name of ['New passphrase', 'Repeat it', 'Lock after idle minutes (0: never)']) {
      const label = await page.locator('label', { hasText: name }).boundingBox();
      const input = await page.getByLabel(name, { exact: true }).boundingBox();
      expect(label!.y + label!.height, name).toBeLessThanOrEqual(input!.y + 1);
      expect(Math.abs(label!.x - input!.x), name).toBeLessThan(4);
    }
  });

  it('Save with no key typed is refused next to the key field: nothing says "Saved.", and Settings stays', async () => {
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Enter your Anthropic API key: chatting needs one').waitFor();
    expect(await page.getByLabel('API key').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('Saved.').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Close' }).count()).toBe(0);
    expect(await page.getByText('Add your Anthropic API key to start chatting').isVisible()).toBe(true);
    await shot('first-run-1b-empty-key');
  });

  it('Test says clearly when nothing answers at the base URL, and nothing is saved', async () => {
    const port = await closedPort();
    await page.getByLabel('API key').fill(KEY);
    // Typing a key takes back what Save said of the empty one.
    await expect.poll(() => page.getByText('Enter your Anthropic API key: chatting needs one').count()).toBe(0);
    expect(await page.getByText('Nothing was saved: fix the fields marked above.').count()).toBe(0);
    expect(await page.getByLabel('API key').getAttribute('aria-invalid')).toBeNull();
    await page.getByRole('textbox', { name: 'Base URL' }).fill(`http://127.0.0.1:${port}`);
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect
      .poll(() => status().textContent(), { timeout: 30_000 })
      .toContain(`Nothing answered at http://127.0.0.1:${port}`);
    expect(await status().getAttribute('class')).toContain('field-error');
    expect(await page.getByText('Saved.').count()).toBe(0);
    await shot('first-run-2-closed-port');
  });

  it('Test says when the endpoint refuses the key', async () => {
    await page.getByLabel('API key').fill('sk-ant-wrong');
    await page.getByRole('textbox', { name: 'Base URL' }).fill(api!.url);
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect.poll(() => status().textContent(), { timeout: 30_000 }).toContain('refused the API key (401)');
  });

  it("with a good key Test connects, and the model list becomes the endpoint's own", async () => {
    await page.getByLabel('API key').fill(KEY);
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect.poll(() => status().textContent(), { timeout: 30_000 }).toContain('this endpoint offers 2 models');
    await page.getByText('Advanced settings').click();
    const model = page.getByRole('combobox', { name: 'Model' });
    expect(await model.locator('option').allTextContents()).toEqual(['claude-endpoint-large', 'claude-endpoint-small']);
    expect(await model.inputValue()).toBe('claude-endpoint-large');
    await page.getByText('Advanced settings').click(); // folded again: a Save must not unfold it
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    // The confirmation shows where Save was, with what to do next; the advanced fields stay folded.
    expect(await page.locator('details.advanced-settings').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    const next = page.getByText(/^Next: add an MCP server under Servers/);
    expect(await next.isVisible()).toBe(true);
    const inView = await next.evaluate((element) => element.getBoundingClientRect().bottom <= window.innerHeight);
    expect(inView).toBe(true);
    // The Test result asked for a Save; once saved it no longer does.
    expect(await status().textContent()).toBe('');
    expect(await page.getByText('Enter your Anthropic API key').count()).toBe(0);
    await page.reload();
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect
      .poll(() => model.locator('option').allTextContents())
      .toEqual(['claude-endpoint-large', 'claude-endpoint-small']);
    expect(await model.inputValue()).toBe('claude-endpoint-large');
  });

  it('going to the chat closes Settings: New thread does, and so does sending, so the first answer shows', async () => {
    const settings = page.getByRole('button', { name: 'Settings' });
    expect(await settings.getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'New thread', exact: true }).click();
    await page.getByText('No messages yet. Ask something below.').waitFor();
    expect(await settings.getAttribute('aria-pressed')).toBe('false');
    await settings.click();
    await page.getByText('Advanced settings').waitFor();
    api!.script({ text: 'The first answer, in full view.' });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Hello');
    await box.press('Enter');
    const answer = page.getByRole('list', { name: 'Messages' }).getByText('The first answer, in full view.');
    await answer.waitFor();
    expect(await settings.getAttribute('aria-pressed')).toBe('false');
    const inView = await answer.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    });
    expect(inView).toBe(true);
    // The header's token line (this model has no price: the reason is in its tooltip) ends before the Thread menu.
    const tokens = page.getByRole('group', { name: 'Tokens used in this thread' });
    const line = (await tokens.boundingBox())!;
    expect(line.x + line.width).toBeLessThanOrEqual(
      (await page.getByRole('button', { name: /Thread menu/ }).boundingBox())!.x,
    );
    expect(await tokens.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true); // Nothing runs over.
    expect(await tokens.innerText()).toMatch(/no price/);
    await shot('first-run-4-first-answer');
  });

  it('at phone width the key, Test and Save fit the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByText('Advanced settings').click(); // unfolded by the reload (a key is stored): fold it again
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByRole('button', { name: 'Test', exact: true }).scrollIntoViewIfNeeded();
    await shot('first-run-3-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("saving a key the endpoint refused says so; then the right one shows the endpoint's models without reopening Settings", async () => {
    const model = page.getByRole('combobox', { name: 'Model' });
    const saveKey = async (key: string) => {
      await page.getByLabel('API key').fill(key);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved.').waitFor();
    };
    // The stored (good) key's list first, so that the change below is seen happen.
    await page.getByText('Advanced settings').click();
    await expect.poll(() => model.locator('option').allTextContents()).toContain('claude-endpoint-small');
    // Tested first and refused, then saved all the same: the Save says so.
    await page.getByLabel('API key').fill('sk-ant-wrong');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect.poll(() => status().textContent(), { timeout: 30_000 }).toContain('refused the API key (401)');
    await saveKey('sk-ant-wrong');
    const despite = page.getByText('Saved as asked, but the last Test of these settings failed:');
    await despite.waitFor();
    expect(await despite.textContent()).toContain('refused the API key (401)');
    // The endpoint refuses the key, so it lists nothing: the app's own choices stand in.
    await expect.poll(() => model.locator('option').allTextContents()).not.toContain('claude-endpoint-small');
    await saveKey(KEY);
    await expect
      .poll(() => model.locator('option').allTextContents())
      .toEqual(['claude-endpoint-large', 'claude-endpoint-small']);
    expect(await despite.count()).toBe(0); // Another key than the one tested: nothing to warn of.
    expect(pageErrors).toEqual([]);
    // The security headers name no feature Chromium does not know (it logs each one as an error on every load).
    expect(consoleLines.filter((line) => line.includes('Permissions-Policy'))).toEqual([]);
  });
});
