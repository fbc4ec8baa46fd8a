/**
 * Issue #24 item 2, in Chromium against the production build: a limit of model calls per hour set in Settings stops
 * the next turn before its call with a message naming the limit; raising the limit and Retry goes on, nothing lost.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { openAppPage, saveKeyAndBaseUrl } from './app-page';
import { startAppServer, type AppServer } from './app-server';
import type { LaunchedChromium } from './browser';

let app: AppServer | undefined;
let api: FakeAnthropic | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;
let pageErrors: string[] = [];

const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message' });
const settings = () => page.getByRole('region', { name: 'Settings' });

async function setCallsPerHour(value: string) {
  if ((await settings().count()) === 0) await page.getByRole('button', { name: 'Settings' }).click();
  await settings().getByLabel('Model calls per hour').fill(value);
  await settings().getByRole('button', { name: 'Apply limits' }).click();
  await settings().getByText('Limits applied; they count from the next model call.').waitFor();
  await page.getByRole('button', { name: 'Settings' }).click();
}

describe('spending limits in Settings', () => {
  beforeAll(async () => {
    [api, app] = await Promise.all([startFakeAnthropic(), startAppServer()]);
    ({ browser, page, pageErrors } = await openAppPage(app.url));
    await saveKeyAndBaseUrl(page, 'sk-ant-limits', api.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await api?.stop();
  });

  it('a turn past the calls-per-hour limit stops before the call; a raised limit and Retry go on', async () => {
    await setCallsPerHour('1');
    api!.script({ text: 'The first answer.' });
    await page.getByRole('button', { name: 'New thread', exact: true }).click();
    await box().fill('First question');
    await box().press('Enter');
    await messages().getByText('The first answer.').waitFor({ timeout: 30_000 });

    await box().fill('Second question');
    await box().press('Enter');
    await messages()
      .getByText(/the limit of 1 model call per hour is reached \(1 in the last hour\)/)
      .waitFor({ timeout: 30_000 });
    expect(api!.requests).toHaveLength(1);
    await page.screenshot({ path: 'test-results/screenshots/limit-reached.png', fullPage: true });

    await setCallsPerHour('5');
    api!.script({ text: 'The second answer.' });
    await messages().getByRole('button', { name: 'Retry' }).click();
    await messages().getByText('The second answer.').waitFor({ timeout: 30_000 });
    expect(api!.requests).toHaveLength(2);
    expect(await messages().getByText('Second question', { exact: true }).count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });
});
