/**
 * The chat on a phone (390 x 844) in the production build (issue #22, item 4): the thread header folds into one line
 * with a menu, the message list gets at least 65% of the screen's height, and an approval's buttons are in view
 * (on screen, not covered by the message box) as soon as it asks, however long the arguments.
 */
import { mkdir } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import { startEverythingRig, type EverythingRig, saveKeyAndBaseUrl } from './app-page';
import { startTestMcpServer, type TestMcpServer } from '../fixtures/test-mcp-server';
import { addServer } from './app-steps';

const SHOTS = 'test-results/screenshots';
const [WIDTH, HEIGHT] = [390, 844];
let rig: EverythingRig | undefined;
let api: FakeAnthropic;
let page: Page;
let pageErrors: string[] = [];
const stopAfter: TestMcpServer[] = [];

const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message' });
const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` });

/** The element is wholly on screen and is what shows at its middle (nothing covers it). */
const isInView = (locator: Locator) =>
  locator.evaluate((element) => {
    const r = element.getBoundingClientRect();
    const onScreen = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
    return onScreen && element.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
  });

describe('the chat on a phone', () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    rig = await startEverythingRig({ viewport: { width: WIDTH, height: HEIGHT } });
    ({ api, page, pageErrors } = rig);
    await saveKeyAndBaseUrl(page, 'sk-ant-phone', api.url);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await addServer(page, 'Tools', rig.everything.url);
    await page.locator('button.new-thread').click();
    await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
  });

  afterAll(async () => {
    await rig?.close();
    await Promise.all(stopAfter.map((server) => server.stop()));
  });

  it('the header is one line with a menu, and the message list gets at least 65% of the height', async () => {
    api.script({ text: 'A first answer, long enough to matter. '.repeat(12) });
    await box().fill('A question asked on a phone about something that needs a long answer');
    await box().press('Enter');
    await messages().getByText('A first answer').waitFor({ timeout: 20_000 });
    const title = await page.locator('.chat-title').boundingBox();
    expect(title!.height).toBeLessThan(48);
    const menu = page.getByRole('button', { name: 'Thread menu' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await isInView(menu)).toBe(true);
    expect(await page.getByRole('button', { name: 'Export Markdown' }).isVisible()).toBe(false);
    expect(await page.getByRole('switch', { name: 'Tools', exact: true }).isVisible()).toBe(false);
    // What the thread cost so far stays in view on the line (the token counts are in the menu).
    const cost = page.getByLabel('Tokens used in this thread').locator('.cost strong');
    expect(await cost.isVisible()).toBe(true);
    expect(await cost.textContent()).toMatch(/^\$\d+\.\d{2,4}$/);
    expect(await isInView(cost)).toBe(true);
    const counts = page.getByLabel('Tokens used in this thread').locator('.token-counts > span:not(.cost)');
    expect(await counts.count()).toBe(2); // "N in" and "N out", in the menu only
    for (const part of await counts.all()) expect(await part.isVisible()).toBe(false);
    const list = await page.locator('.message-scroller').boundingBox();
    const share = list!.height / HEIGHT;
    console.log(`message list at ${WIDTH}x${HEIGHT}: ${Math.round(list!.height)} px = ${(share * 100).toFixed(1)}%`);
    expect(share).toBeGreaterThanOrEqual(0.65);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
    await shot('phone-1-chat');

    await menu.click();
    await page.getByRole('button', { name: 'Export Markdown' }).waitFor();
    await page.getByRole('switch', { name: 'Tools', exact: true }).check();
    expect(await page.getByLabel('Tokens used in this thread').isVisible()).toBe(true);
    await shot('phone-2-thread-menu-open');
    await menu.click();
    expect(await page.getByRole('button', { name: 'Export Markdown' }).isVisible()).toBe(false);
  });

  it('the Threads list folds away on Escape (focus back on its button) and when Settings is opened', async () => {
    const toggle = page.locator('button.threads-toggle');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('searchbox', { name: 'Search threads' }).focus();
    await page.keyboard.press('Escape');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await toggle.evaluate((element) => element === document.activeElement)).toBe(true);
    await toggle.click();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
  });

  it('the @ list fits the screen: no sideways scroll, each name on a line or two, however long its detail', async () => {
    await box().fill('@');
    const popup = page.locator('.mention-popup');
    await popup.waitFor();
    // The server's resources have long addresses as their detail (demo://resource/static/document/...).
    await expect.poll(() => popup.getByText(/demo:\/\/resource/).count()).toBeGreaterThan(0);
    expect(await popup.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    const tallest = await popup
      .locator('.mention-label')
      .evaluateAll((labels) =>
        Math.max(
          ...labels.map(
            (label) =>
              label.getBoundingClientRect().height /
              (parseFloat(getComputedStyle(label).lineHeight) || 1.2 * parseFloat(getComputedStyle(label).fontSize)),
          ),
        ),
      );
    expect(tallest).toBeLessThanOrEqual(2.5);
    await shot('phone-4-mentions');
    await box().fill('');
  });

  it('an approval shows its buttons in view at once, even with long arguments', async () => {
    const long = Array.from({ length: 60 }, (_, i) => `line ${i} of a long message`).join('\n');
    api.script({ toolUses: [{ name: 'mcp__tools__echo', input: { message: long } }] }, { text: 'Echoed.' });
    await box().fill('Echo a long text');
    await box().press('Enter');
    const approval = page.getByRole('region', { name: 'Approve echo' });
    await approval.waitFor({ timeout: 20_000 });
    for (const name of ['Allow once', 'Allow for this thread', 'Always allow', 'Deny'])
      await expect.poll(() => isInView(approval.getByRole('button', { name, exact: true }))).toBe(true);
    await shot('phone-3-approval');
    await approval.getByRole('button', { name: 'Allow once' }).click();
    await messages().getByText('Echoed.').waitFor({ timeout: 20_000 });
    expect(pageErrors).toEqual([]);
  });

  it("with six servers, the open menu's server line shows every one of them", async () => {
    // Each on its own port, so each holds its stream (servers sharing one address: shared-address.e2e.test.ts).
    const more = await Promise.all(Array.from({ length: 5 }, () => startTestMcpServer()));
    stopAfter.push(...more);
    for (const [i, name] of ['Atlas', 'Books', 'Clock', 'Docs', 'Ember'].entries())
      await addServer(page, name, more[i]!.url);
    const menu = page.getByRole('button', { name: 'Thread menu' });
    await menu.click();
    const line = page.locator('.chat-header > .thread-servers');
    await expect.poll(() => line.getByRole('switch').count()).toBe(6);
    const hidden = await line.evaluate((fieldset) => {
      const box = fieldset.getBoundingClientRect();
      return [...fieldset.querySelectorAll('label')]
        .filter((row) => row.getBoundingClientRect().bottom > box.bottom + 1)
        .map((row) => row.textContent);
    });
    expect(hidden).toEqual([]);
    await shot('phone-4-six-servers');
    await menu.click();
    expect(pageErrors).toEqual([]);
  });
});
