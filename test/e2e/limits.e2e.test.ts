/**
 * Issue #24 item 2, in Chromium against the production build: a limit of model calls per hour set in Settings stops
 * the next turn before its call with a message naming the limit; raising the limit and Retry goes on, nothing lost.
 * The same for a thread's spend cap in dollars, set in the thread's settings.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { openAppPage, saveKeyAndBaseUrl } from './app-page';
import { startAppServer, type AppServer } from './app-server';
import type { LaunchedChromium } from './browser';
import { dumpIndexedDb } from './idb-dump';
import { hasFocus, isOnScreen } from './layout-checks';

let app: AppServer | undefined;
let api: FakeAnthropic | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;
let pageErrors: string[] = [];

const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message' });
const settings = () => page.getByRole('region', { name: 'Settings' });

/** How many answers the thread's storage holds as failed. */
async function failedAnswersStored(): Promise<number> {
  const dump = JSON.parse(await dumpIndexedDb(page)) as Record<string, { value: { status?: string } }[]>;
  return Object.entries(dump)
    .filter(([store]) => store.endsWith('/messages'))
    .flatMap(([, records]) => records)
    .filter((record) => record.value.status === 'error').length;
}

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

  it('the Limits fields show each label above its own full-width input, before the Servers panel was ever opened', async () => {
    // Their layout once came from the Servers panel's stylesheet, loaded only with that panel: until then each label
    // sat beside its input at a ragged place.
    if ((await settings().count()) === 0) await page.getByRole('button', { name: 'Settings' }).click();
    const limits = settings().getByRole('region', { name: 'Limits' });
    await limits.scrollIntoViewIfNeeded();
    const section = (await limits.boundingBox())!;
    const lefts: number[] = [];
    for (const label of ['Model calls per hour', 'Servers per thread']) {
      const field = limits.getByLabel(label, { exact: true });
      const labelBox = (await limits.locator('label', { hasText: label }).boundingBox())!;
      const input = (await field.boundingBox())!;
      expect(labelBox.y + labelBox.height).toBeLessThanOrEqual(input.y + 1);
      // Full width: the input fills most of the section's width.
      expect(input.width).toBeGreaterThan(section.width * 0.7);
      lefts.push(input.x);
    }
    expect(lefts[0]).toBeCloseTo(lefts[1]!, 0);
    await page.getByRole('button', { name: 'Settings' }).click();
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
    // Nothing was sent, so the stopped turn has no trace of a model call: only the first turn's Trace is offered.
    await expect
      .poll(() =>
        messages()
          .getByRole('button', { name: /^Trace/ })
          .allTextContents(),
      )
      .toEqual(['Trace · 1 model call']);
    await page.screenshot({ path: 'test-results/screenshots/limit-reached.png', fullPage: true });

    // Retry while the limit still holds is refused the same way, and each refusal is stored: the list still shows it
    // once, with no "This attempt failed" note per press (nothing was sent, nothing arrived).
    for (const stored of [2, 3]) {
      await messages().getByRole('button', { name: 'Retry' }).click();
      await expect.poll(failedAnswersStored).toBe(stored);
    }
    await messages().getByRole('button', { name: 'Retry' }).waitFor();
    expect(
      await messages()
        .getByText(/This attempt failed/)
        .count(),
    ).toBe(0);
    expect(
      await messages()
        .getByText(/the limit of 1 model call per hour is reached/)
        .count(),
    ).toBe(1);
    expect(api!.requests).toHaveLength(1);

    await setCallsPerHour('5');
    api!.script({ text: 'The second answer.' });
    await messages().getByRole('button', { name: 'Retry' }).click();
    await messages().getByText('The second answer.').waitFor({ timeout: 30_000 });
    expect(api!.requests).toHaveLength(2);
    expect(await messages().getByText('Second question', { exact: true }).count()).toBe(1);

    // The trace shows the counts the limit check saw just before the call: the first call, of the raised limit. The
    // answer's text shows while it streams, its trace once the call is done: until then the last Trace is the first turn's.
    await expect
      .poll(() =>
        messages()
          .getByRole('button', { name: /^Trace/ })
          .count(),
      )
      .toBe(2);
    const toggle = messages()
      .getByRole('button', { name: /^Trace/ })
      .last();
    await toggle.click();
    const trace = messages().getByRole('region', { name: 'Trace of this turn' });
    const call = trace.getByRole('listitem').filter({ hasText: 'Model call' }).last();
    await call.getByText(/^Limits: 1 of 5 calls this hour/).waitFor({ timeout: 30_000 });
    await page.screenshot({ path: 'test-results/screenshots/limit-counts-trace.png', fullPage: true });
    await toggle.click();
    expect(pageErrors).toEqual([]);
  });

  it("a thread's spend cap (thread settings) stops the next call with the figure spent; raised, Retry goes on", async () => {
    const cap = () => page.getByRole('textbox', { name: 'Spend cap for this thread (USD)' });
    const saveCap = async (value: string) => {
      await cap().fill(value);
      await page.getByRole('button', { name: 'Save thread settings' }).click();
    };
    await page.getByRole('button', { name: 'Thread menu' }).click(); // The thread's settings are under it.
    await page.getByText('Thread settings', { exact: true }).click();
    await saveCap('-1');
    await page.getByText('Spend per thread must be more than $0 (0 means no cap)').waitFor();
    expect(await cap().getAttribute('aria-invalid')).toBe('true');
    await saveCap('0.000001');
    await page.getByText('Saved for this thread.').waitFor();
    await page.getByText('Thread settings', { exact: true }).click();
    await page.getByRole('button', { name: 'Thread menu' }).click();

    await box().fill('Third question');
    await box().press('Enter');
    await messages()
      .getByText(/this thread's spend cap of \$0\.0000010 is reached \(\$0\.\d+ spent in this thread\)/)
      .waitFor({ timeout: 30_000 });
    expect(api!.requests).toHaveLength(2);

    await page.getByRole('button', { name: 'Thread menu' }).click();
    await page.getByText('Thread settings', { exact: true }).click();
    await saveCap('ten'); // An error first, so that "Saved" below is the raise's own answer.
    await page.getByText('Spend per thread must be a number of dollars').waitFor();
    await saveCap('5');
    await page.getByText('Saved for this thread.').waitFor();
    await page.getByText('Thread settings', { exact: true }).click();
    await page.getByRole('button', { name: 'Thread menu' }).click();
    api!.script({ text: 'The third answer.' });
    await messages().getByRole('button', { name: 'Retry' }).click();
    await messages().getByText('The third answer.').waitFor({ timeout: 30_000 });
    expect(api!.requests).toHaveLength(3);
    expect(await messages().getByText('Third question', { exact: true }).count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });

  it("a thread's preload count out of range is refused beside the field, in view; server-side search can be chosen", async () => {
    const openSettings = async () => {
      await page.getByRole('button', { name: 'Thread menu' }).click();
      await page.getByText('Thread settings', { exact: true }).click();
    };
    const preload = () => page.getByRole('textbox', { name: 'Tools preloaded per turn (empty: as in Settings)' });
    const mode = () => page.getByRole('combobox', { name: 'Tool search mode for this thread' });
    const save = () => page.getByRole('button', { name: 'Save thread settings' });
    await openSettings();
    await preload().fill('999');
    await save().click();
    // The reason beside the field, on screen (the menu scrolls), the field marked and focused; the line under Save is
    // an alert.
    const reason = page.getByText('Enter a whole number of tools from 0 to 20, or leave it empty to follow Settings.');
    await reason.waitFor();
    await expect.poll(() => isOnScreen(reason)).toBe(true);
    expect(await preload().getAttribute('aria-invalid')).toBe('true');
    expect(await hasFocus(preload())).toBe(true);
    expect(await page.getByRole('alert').filter({ hasText: 'Not saved: correct the tools preloaded.' }).count()).toBe(
      1,
    );

    await mode().selectOption({ label: "Server-side search (the API's own tool search)" });
    await preload().fill('2');
    await save().click();
    const saved = page.getByText('Saved for this thread.');
    await saved.waitFor();
    await expect.poll(() => isOnScreen(saved)).toBe(true);
    expect(await reason.count()).toBe(0);
    // Stored: a reload opens the thread with both.
    await page.reload();
    await openSettings();
    expect(await mode().inputValue()).toBe('server');
    expect(await preload().inputValue()).toBe('2');

    // The model field offers the endpoint's models, and says so when a name is not among them.
    const model = page.getByRole('combobox', { name: 'Model for this thread (empty: the default from Settings)' });
    const options = () =>
      model.evaluate((input) => [...(input as HTMLInputElement).list!.options].map((option) => option.value));
    await expect
      .poll(options)
      .toEqual(['claude-opus-5', 'claude-sonnet-5', 'claude-sonnet-4-6', 'claude-haiku-4-5-20251001']);
    await model.fill('claude-sonet-5');
    const unlisted = page.getByText(/^Not among the models this endpoint lists \(claude-opus-5, /);
    await unlisted.waitFor();
    expect(await model.getAttribute('aria-describedby')).toBe(await unlisted.getAttribute('id'));
    await model.fill('claude-sonnet-5');
    await unlisted.waitFor({ state: 'detached' });
    await model.fill('');
    expect(pageErrors).toEqual([]);
  });
});
