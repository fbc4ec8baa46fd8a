/**
 * Start-up in the production build: the message box takes typing from the first frame, while IndexedDB is still
 * opening; the text becomes the opened thread's, is sent once, and stays on screen when start-up fails.
 * A start-up or thread chunk that cannot be fetched becomes an error on screen, never a blank page.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../../fakes/fake-anthropic';
import { saveKeyAndBaseUrl, startModelRig, type ModelRig } from '../app-page';
import type { AppServer } from '../app-server';
import { openNewThread } from '../app-steps';
import type { LaunchedChromium } from '../browser';
import { holdIndexedDbOpen } from '../init-scripts';

const HOLD_MS = 1500;
let rig: ModelRig | undefined;
let app: AppServer | undefined;
let api: FakeAnthropic | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;

const box = (on = page) => on.getByRole('textbox', { name: 'Message' });
const sendButton = (on = page) => on.getByRole('button', { name: 'Send' });

/** Reloads with IndexedDB held, waiting only for the page's first frame (the box), not for start-up. */
async function reloadHeld(on: Page, failAfter: boolean): Promise<void> {
  await on.addInitScript(holdIndexedDbOpen, { holdMs: HOLD_MS, failAfter });
  await on.reload({ waitUntil: 'commit' });
  await box(on).waitFor();
}

describe('start-up', () => {
  let pageErrors: string[] = [];

  beforeAll(async () => {
    rig = await startModelRig();
    ({ api, app, browser, page, pageErrors } = rig);
    // First run: Settings opens for the key; then one thread, which start-up reopens as the last one.
    await saveKeyAndBaseUrl(page, 'sk-ant-startup-e2e', api.url);
    await openNewThread(page);
  });

  afterAll(async () => {
    await rig?.close();
  });

  it('takes typing while IndexedDB opens, holds Enter until ready, then sends the text once in the reopened thread', async () => {
    await reloadHeld(page, false);
    await box().click();
    await page.keyboard.type('Typed before storage opened');
    await page.keyboard.press('Enter'); // Not ready yet: nothing is sent and the text stays.
    expect(await page.getByRole('status').filter({ hasText: 'Opening local storage…' }).isVisible()).toBe(true);
    expect(await sendButton().isDisabled()).toBe(true);
    expect(await box().inputValue()).toBe('Typed before storage opened');

    // Ready: the last thread is open, and the box is still the one typed into (focus and text kept, once).
    await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
    await expect.poll(() => sendButton().isEnabled()).toBe(true);
    expect(await box().inputValue()).toBe('Typed before storage opened');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message');
    await page.keyboard.type(', and after');
    expect(await box().inputValue()).toBe('Typed before storage opened, and after');
    expect(api!.requests).toHaveLength(0);

    api!.script({ text: 'Got it.' });
    await page.keyboard.press('Enter');
    const messages = page.getByRole('list', { name: 'Messages' });
    await messages.getByText('Got it.').waitFor();
    expect(await box().inputValue()).toBe('');
    expect(await messages.getByText('Typed before storage opened, and after', { exact: true }).count()).toBe(1);
    expect(api!.requests).toHaveLength(1);
    expect(JSON.stringify(api!.requests[0]!.body.messages)).toContain('Typed before storage opened, and after');
    expect(pageErrors).toEqual([]);
  });

  it('keeps the typed text on screen, next to the error, when start-up fails', async () => {
    const failing = await browser!.context.newPage();
    try {
      await failing.goto(app!.url, { waitUntil: 'commit' });
      await reloadHeld(failing, true);
      await box(failing).fill('Do not lose me');
      await failing.getByText('The app cannot start').waitFor();
      expect(await box(failing).inputValue()).toBe('Do not lose me');
      expect(await box(failing).isVisible()).toBe(true);
      expect(await sendButton(failing).isDisabled()).toBe(true);
    } finally {
      await failing.close();
    }
  });

  it('shows why, and keeps the box, when the start-up chunk cannot be fetched', async () => {
    const failing = await browser!.context.newPage();
    try {
      await failing.route('**/assets/start-*.js', (route) => route.abort());
      await failing.goto(app!.url, { waitUntil: 'commit' });
      await box(failing).fill('Still here');
      await failing.getByText('The app cannot start').waitFor();
      await failing.getByText(/The app could not be loaded/).waitFor();
      expect(await box(failing).inputValue()).toBe('Still here');
      expect(await sendButton(failing).isDisabled()).toBe(true);
    } finally {
      await failing.close();
    }
  });

  it("says so in the panel's place, and keeps the box, when Settings' chunk cannot be fetched", async () => {
    const failing = await browser!.context.newPage();
    try {
      await failing.route('**/assets/settings-panel-*.js', (route) => route.abort());
      await failing.goto(app!.url);
      await failing.getByRole('button', { name: 'Settings' }).click();
      await failing.getByText('Settings could not be shown').waitFor();
      await failing.getByText('Check the connection and reload the page; nothing stored is lost.').waitFor();
      await box(failing).fill('Still here');
      expect(await box(failing).inputValue()).toBe('Still here');
    } finally {
      await failing.close();
    }
  });

  it("says so in the thread's place, and keeps the box and the thread list, when the thread's chunk cannot be fetched", async () => {
    const failing = await browser!.context.newPage();
    try {
      await failing.route('**/assets/thread-pane-*.js', (route) => route.abort());
      await failing.goto(app!.url);
      await failing.getByText('The thread could not be shown').waitFor();
      await failing.getByText(/Open another thread, or reload the page/).waitFor();
      await failing.getByRole('button', { name: 'New thread', exact: true }).waitFor();
      await box(failing).fill('Still here');
      expect(await box(failing).inputValue()).toBe('Still here');
    } finally {
      await failing.close();
    }
  });
});
