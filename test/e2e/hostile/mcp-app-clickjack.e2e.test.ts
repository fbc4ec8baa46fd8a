/**
 * An MCP App cannot clickjack its way to full screen (production build, real Chromium). The hostile game of
 * test/fixtures/mcp-app-game.ts asks to fill the window at the moment the person's pointer rests where the page's
 * Allow will appear, just before the person clicks: that click must not grant it. The prompt never moves the app's
 * frame, and a keyboard user (or a pointer that comes onto Allow after it appeared) still allows.
 */
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../../fakes/fake-anthropic';
import { startMcpAppServer, type McpAppServer } from '../../fixtures/mcp-app-server';
import { saveKeyAndBaseUrl, startModelRig, type ModelRig } from '../app-page';

let dice: McpAppServer | undefined;
let rig: ModelRig | undefined;
let api: FakeAnthropic | undefined;
let page: Page;
let pageErrors: string[] = [];

const messages = () => page.getByRole('list', { name: 'Messages' });
const appSection = () => messages().getByRole('region', { name: 'App of Dice' }).last();
const appFrame = (): FrameLocator => appSection().frameLocator('iframe.mcp-app-frame').frameLocator('iframe');
const frameBox = () => appSection().locator('iframe.mcp-app-frame').boundingBox();
const ask = () => appSection().getByRole('group', { name: 'The app asks to fill the screen' });
const isFullscreen = async () => (await appSection().getAttribute('class'))!.includes('mcp-app-fullscreen');
/** Two frames of the page's own: any click it took has rendered by then. */
const rendered = () =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

describe('MCP Apps: the full-screen prompt against clickjacking', () => {
  beforeAll(async () => {
    dice = await startMcpAppServer();
    const appConfig = {
      servers: [{ id: 'dice', name: 'Dice', url: dice.url }],
      defaults: { toolSearch: { deferral: 'never' }, threadServerIds: ['dice'] },
    };
    rig = await startModelRig({ appConfig });
    ({ api, page, pageErrors } = rig);
    await saveKeyAndBaseUrl(page, 'sk-ant-clickjack-e2e', api.url);
    await page.getByRole('region', { name: 'Settings' }).getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('button', { name: 'New thread', exact: true }).first().click();
    api.script({ toolUses: [{ name: 'mcp__dice__play', input: {} }] }, { text: 'Have fun.' });
    await page.getByRole('textbox', { name: 'Message' }).fill('Start the game');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await messages().getByText('Have fun.').waitFor({ timeout: 30_000 });
    await appFrame().getByText('Ready').waitFor({ timeout: 30_000 });
  });

  afterAll(async () => {
    await rig?.close();
    await dice?.close();
  });

  it('a click already on its way when the app asks does not grant full screen', async () => {
    // Where Allow shows, learnt from one honest ask.
    await appFrame().getByRole('button', { name: 'Ask to fill the screen' }).click();
    const allow = await ask().getByRole('button', { name: 'Allow' }).boundingBox();
    await ask().getByRole('button', { name: 'Dismiss' }).click();
    await ask().waitFor({ state: 'detached' });
    const spot = { x: allow!.x + allow!.width / 2, y: allow!.y + allow!.height / 2 };

    // The game's trap: the next pointer move it sees, or the next key ("go!"), asks. The pointer rests on that spot.
    await appFrame().getByRole('button', { name: 'Play' }).click();
    await appFrame().getByText('Trap set').waitFor();
    await page.mouse.move(spot.x, spot.y);
    await page.keyboard.press('g');
    await appFrame().getByText('Trap sprung, got inline').waitFor({ timeout: 15_000 });
    await ask().waitFor();
    // The person's click, meant for the game, lands where Allow now is.
    const under = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.textContent, spot);
    expect(under).toBe('Allow');
    await page.mouse.down();
    await page.mouse.up();
    await rendered();
    expect(await isFullscreen()).toBe(false);
    expect(await appFrame().getByText('Shown fullscreen').count()).toBe(0);
    // Still asking, and saying how to allow on purpose.
    await ask().getByText('Move the pointer off Allow and back to allow').waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('a keyboard user allows it, and so does a pointer that comes onto Allow after it appeared', async () => {
    // Tab onto Allow (from Dismiss, back one) and press Enter.
    await ask().getByRole('button', { name: 'Dismiss' }).focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(isFullscreen).toBe(true);
    await appFrame().getByText('Shown fullscreen').waitFor({ timeout: 15_000 });
    await page.keyboard.press('Escape');
    await expect.poll(isFullscreen).toBe(false);
    await appFrame().getByText('Shown inline').waitFor({ timeout: 15_000 });

    // The prompt takes no room from the app: its frame stays exactly where it was.
    await page.mouse.move(1, 1);
    const before = await frameBox();
    await appFrame().getByRole('button', { name: 'Ask to fill the screen' }).click();
    await ask().waitFor({ timeout: 15_000 });
    expect(await frameBox()).toEqual(before);
    // A pointer moved onto Allow after it appeared (as a person's is) allows.
    await ask().getByRole('button', { name: 'Allow' }).click();
    await expect.poll(isFullscreen).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(isFullscreen).toBe(false);
    expect(pageErrors).toEqual([]);
  });

  it('on a phone-sized window the whole prompt shows in the bar, Allow and Dismiss in full view', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await appFrame().getByRole('button', { name: 'Ask to fill the screen' }).waitFor();
    const before = await frameBox();
    await appFrame().getByRole('button', { name: 'Ask to fill the screen' }).click();
    await ask().waitFor({ timeout: 15_000 });
    expect(await frameBox()).toEqual(before);
    const bar = (await appSection().locator('.mcp-app-bar').boundingBox())!;
    const text = appSection().locator('.mcp-app-ask-text');
    // The whole question shows (on two short lines), not cut.
    expect(await text.evaluate((element) => element.scrollHeight <= element.clientHeight)).toBe(true);
    for (const name of ['Allow', 'Dismiss']) {
      const button = (await appSection().getByRole('button', { name, exact: true }).boundingBox())!;
      expect(button.x).toBeGreaterThanOrEqual(bar.x);
      expect(button.x + button.width).toBeLessThanOrEqual(bar.x + bar.width + 0.5);
      expect(button.y).toBeGreaterThanOrEqual(bar.y);
      expect(button.y + button.height).toBeLessThanOrEqual(bar.y + bar.height + 0.5);
    }
    await ask().getByRole('button', { name: 'Dismiss' }).click();
    await ask().waitFor({ state: 'detached' });
  });
});
