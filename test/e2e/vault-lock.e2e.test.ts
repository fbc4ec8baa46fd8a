/**
 * The passphrase lock in the production build: a passphrase set in Settings, Lock in the header (by keyboard: the lock
 * bar takes the focus), the API key field locked meanwhile, a wrong passphrase refused, the right one unlocking.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { openAppPage, saveKeyAndBaseUrl } from './app-page';
import { startAppServer, type AppServer } from './app-server';
import type { LaunchedChromium } from './browser';

const PASSPHRASE = 'correct horse battery staple';
let app: AppServer | undefined;
let api: FakeAnthropic | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;
let pageErrors: string[] = [];

describe('the passphrase lock', () => {
  beforeAll(async () => {
    [api, app] = await Promise.all([startFakeAnthropic(), startAppServer()]);
    ({ browser, page, pageErrors } = await openAppPage(app.url, { viewport: { width: 1280, height: 800 } }));
    await saveKeyAndBaseUrl(page, 'sk-ant-vault', api.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await api?.stop();
  });

  it('Lock by keyboard takes the focus to the lock bar; a wrong passphrase is refused, the right one unlocks', async () => {
    await page.getByLabel('New passphrase').fill(PASSPHRASE);
    await page.getByLabel('Repeat it').fill(PASSPHRASE);
    await page.getByRole('button', { name: 'Set passphrase' }).click();
    await page.getByText('Passphrase set;').waitFor({ timeout: 20_000 });

    await page.getByRole('button', { name: 'Lock', exact: true }).focus();
    await page.keyboard.press('Enter');
    const title = page.getByRole('heading', { name: 'Locked: enter your passphrase' });
    await expect.poll(() => title.evaluate((e) => e === document.activeElement)).toBe(true);
    expect(await page.getByLabel('API key').isDisabled()).toBe(true);

    const field = page.getByRole('region', { name: 'Locked: enter your passphrase' }).getByLabel('Passphrase');
    await field.fill('not it');
    await field.press('Enter');
    await page.getByText('Wrong passphrase. The secrets stay locked; try again.').waitFor({ timeout: 20_000 });
    await field.fill(PASSPHRASE);
    await field.press('Enter');
    await title.waitFor({ state: 'detached', timeout: 20_000 });
    const lock = page.getByRole('button', { name: 'Lock', exact: true });
    await lock.waitFor();
    // The bar went with the focus in it: the Lock button that came back has it, not the page.
    await expect.poll(() => lock.evaluate((e) => e === document.activeElement)).toBe(true);
    expect(await page.getByLabel('API key').isDisabled()).toBe(false);

    // On a phone the header holds Lock, Servers and Settings on one line, inside the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    const header = await page.locator('.shell-header').evaluate((element) => ({
      title: element.querySelector('h1')!.getBoundingClientRect().height,
      rights: [...element.querySelectorAll('button')].map((b) => Math.round(b.getBoundingClientRect().right)),
    }));
    expect(header.title).toBeLessThan(30); // one line
    expect(Math.max(...header.rights)).toBeLessThanOrEqual(390 - 8);
    await page.screenshot({ path: 'test-results/screenshots/vault-lock-phone-header.png' });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Settings' "Lock now" goes as it locks: the lock bar's title takes the focus there too.
    await page.getByRole('button', { name: 'Lock now' }).click();
    await expect.poll(() => title.evaluate((e) => e === document.activeElement)).toBe(true);
    const barField = page.getByRole('region', { name: 'Locked: enter your passphrase' }).getByLabel('Passphrase');
    await barField.fill(PASSPHRASE);
    await barField.press('Enter');
    await title.waitFor({ state: 'detached', timeout: 20_000 });
    expect(pageErrors).toEqual([]);
  });
});
