/**
 * MCP Apps in the production build (issue #21): a tool's `ui://` app (test/fixtures/mcp-app-server.ts, built with the
 * SDK and the ext-apps server helpers) renders its result in the tool's card, inside the double-iframe sandbox; its
 * tool call asks for approval ("requested by the app of Dice") and then runs; its message and link wait for the
 * person; every escape it tries fails and nothing reaches the origin it did not declare; the page's CSP is unchanged.
 */
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../../../src/domain/security-headers';
import type { FakeAnthropic } from '../../fakes/fake-anthropic';
import { FIRST_ROLL, SECOND_ROLL, startMcpAppServer, type McpAppServer } from '../../fixtures/mcp-app-server';
import { saveKeyAndBaseUrl, startModelRig, type ModelRig } from '../app-page';

let dice: McpAppServer | undefined;
let rig: ModelRig | undefined;
let api: FakeAnthropic | undefined;
let page: Page;
let pageErrors: string[] = [];

const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message' });
const appSection = () => messages().getByRole('region', { name: 'App of Dice' }).last();
/** The app's own document: the proxy's frame, then the app's frame inside it. */
const appFrame = (): FrameLocator => appSection().frameLocator('iframe.mcp-app-frame').frameLocator('iframe');
const ESCAPES = [
  'parent-document',
  'top-document',
  'top-cookie',
  'cookie',
  'localStorage',
  'indexedDB',
  'fetch',
  'image',
  'popup',
];

async function send(text: string): Promise<void> {
  await box().fill(text);
  await box().press('Enter');
}

describe('MCP Apps', () => {
  beforeAll(async () => {
    dice = await startMcpAppServer();
    const appConfig = {
      servers: [{ id: 'dice', name: 'Dice', url: dice.url }],
      defaults: { toolSearch: { deferral: 'never' }, threadServerIds: ['dice'] },
    };
    rig = await startModelRig({ appConfig });
    ({ api, page, pageErrors } = rig);
    await saveKeyAndBaseUrl(page, 'sk-ant-apps-e2e', api.url);
    await page.getByRole('region', { name: 'Settings' }).getByRole('button', { name: 'Close', exact: true }).click();
  });

  afterAll(async () => {
    await rig?.close();
    await dice?.close();
  });

  it('renders the result in the card; every escape fails; the app’s tool call asks for approval, then runs', async () => {
    await page.getByRole('button', { name: 'New thread', exact: true }).first().click();
    const toggle = page.getByRole('switch', { name: 'Dice', exact: true });
    if (!(await toggle.isChecked())) await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    api!.script({ toolUses: [{ name: 'mcp__dice__roll', input: { sides: 6 } }] }, { text: 'The die is cast.' });
    await send('Roll a die');
    await messages().getByText('The die is cast.').waitFor({ timeout: 30_000 });

    // The app renders the stored result, inside two sandboxed frames.
    await appFrame().getByText(`Rolled ${FIRST_ROLL}`).waitFor({ timeout: 30_000 });
    const outer = appSection().locator('iframe.mcp-app-frame');
    expect(await outer.getAttribute('sandbox')).toBe('allow-scripts');
    // The app's own policy, first in its document: the declared origin for its scripts, no connections at all.
    const policy = await appFrame()
      .locator('meta[http-equiv="Content-Security-Policy"]')
      .first()
      .getAttribute('content');
    const diceOrigin = new URL(dice!.url).origin;
    expect(policy).toContain(`script-src 'unsafe-inline' 'unsafe-eval' blob: ${diceOrigin};`);
    expect(policy).toContain("connect-src 'none'");
    expect(await appFrame().locator('li[data-escape="done"]').textContent()).toBe('done: all tried');
    for (const name of ESCAPES)
      await expect
        .poll(() => appFrame().locator(`li[data-escape="${name}"]`).textContent(), { timeout: 15_000 })
        .toBe(`${name}: blocked`);

    // The app's call of its server's second tool goes through the thread's approvals, named as the app's.
    await appFrame().getByRole('button', { name: 'Roll again' }).click();
    const approval = page.getByRole('region', { name: 'Approve roll_again' });
    await approval.waitFor({ timeout: 15_000 });
    expect(await approval.textContent()).toContain('requested by the app of Dice');
    expect(dice!.secondRolls).toBe(0);
    await approval.getByRole('button', { name: 'Allow once' }).click();
    await appFrame().getByText(`Second roll ${SECOND_ROLL}`).waitFor({ timeout: 15_000 });
    expect(dice!.secondRolls).toBe(1);

    // Nothing the app tried reached the origin it did not declare; the page's own storage holds nothing of it.
    expect(dice!.flags).toEqual([]);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await page.evaluate(() => localStorage.getItem('escaped'))).toBeNull();
    expect(pageErrors).toEqual([]);
  });

  it('fills the window only after the person allows it, under the page’s bar naming the server and its origin', async () => {
    // The app asked to fill the window as it started: it stays in its card, and the card asks the person.
    await appFrame().getByText('Asked full screen, got inline').waitFor({ timeout: 15_000 });
    expect(await appSection().getAttribute('class')).not.toContain('mcp-app-fullscreen');
    const ask = appSection().getByRole('group', { name: 'The app asks to fill the screen' });
    await ask.getByRole('button', { name: 'Allow' }).click();
    await expect.poll(() => appSection().getAttribute('class')).toContain('mcp-app-fullscreen');
    await appFrame().getByText('Shown fullscreen').waitFor({ timeout: 15_000 });
    // The page's bar stays on top of the app, naming who fills the window, with the way out.
    const bar = appSection().getByRole('toolbar', { name: 'Full screen app' });
    expect(await bar.textContent()).toContain(`App of Dice ${new URL(dice!.url).origin}`);
    const isBarOnTop = await bar.evaluate((element) => {
      const r = element.getBoundingClientRect();
      return r.top >= 0 && element.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
    });
    expect(isBarOnTop).toBe(true);
    const [barBox, frameBox] = await Promise.all([
      bar.boundingBox(),
      appSection().locator('iframe.mcp-app-frame').boundingBox(),
    ]);
    expect(frameBox!.y).toBeGreaterThanOrEqual(barBox!.y + barBox!.height);
    await page.keyboard.press('Escape');
    await expect.poll(() => appSection().getAttribute('class')).not.toContain('mcp-app-fullscreen');
    await appFrame().getByText('Shown inline').waitFor({ timeout: 15_000 });
  });

  it('asks before the app’s message goes into the thread and before its link opens, showing the origin', async () => {
    await appFrame().getByRole('button', { name: 'Read the rules' }).click();
    const link = page.getByRole('region', { name: 'Open a link of the app of Dice' });
    await link.waitFor({ timeout: 15_000 });
    expect(await link.locator('code.origin').textContent()).toBe('https://dice.example');
    await link.getByRole('button', { name: 'Stay here' }).click();
    await appFrame().getByText('Link declined').waitFor({ timeout: 15_000 });

    await appFrame().getByRole('button', { name: 'Share with the model' }).click();
    await appFrame().getByText('Context shared').waitFor({ timeout: 15_000 });
    api!.script({ text: 'Noted: a four.' });
    await appFrame().getByRole('button', { name: 'Tell the chat' }).click();
    const message = page.getByRole('region', { name: 'Message from the app of Dice' });
    await message.waitFor({ timeout: 15_000 });
    expect(await message.textContent()).toContain('The dice said 4.');
    const before = api!.requests.length;
    await message.getByRole('button', { name: 'Send the message' }).click();
    await messages().getByText('Noted: a four.').waitFor({ timeout: 30_000 });
    await messages()
      .getByText(/\[Sent by the app of Dice\]/)
      .waitFor();
    expect(JSON.stringify(api!.requests[before]!.body.messages.at(-1))).toContain('The dice said 4.');
    // The context the app shared goes to the model with the next turn: after the app's message, marked as the apps'
    // words, never in the system prompt (where a change would empty the prompt cache), and it is no message on screen.
    const newest = JSON.stringify(api!.requests[before]!.body.messages.at(-1));
    expect(newest).toContain('The player keeps the die showing 4.');
    expect(newest).toContain("their own words, not the person's");
    expect(JSON.stringify(api!.requests[before]!.body.system ?? '')).not.toContain('The player keeps the die');
    expect(await messages().getByText('The player keeps the die showing 4.').count()).toBe(0);
    await appFrame().getByText('Message sent').waitFor({ timeout: 15_000 });
  });

  it('keeps the app’s message in its own thread: another thread never shows it, and leaving declines it', async () => {
    await appFrame().getByText('Message sent').waitFor({ timeout: 15_000 });
    await appFrame().getByRole('button', { name: 'Tell the chat' }).click();
    const message = page.getByRole('region', { name: 'Message from the app of Dice' });
    await message.waitFor({ timeout: 15_000 });
    const sent = api!.requests.length;
    await page.getByRole('button', { name: 'New thread', exact: true }).first().click();
    await expect.poll(() => page.locator('iframe.mcp-app-frame').count(), { timeout: 15_000 }).toBe(0);
    expect(await message.count()).toBe(0);
    // Back in the app's thread: its frame was torn down, so its question was declined, not left to answer.
    // The list shows the new thread first, the app's thread next.
    await page.getByRole('navigation', { name: 'Threads' }).locator('.thread-link').nth(1).click();
    await appFrame().getByText(`Rolled ${FIRST_ROLL}`).waitFor({ timeout: 30_000 });
    expect(await message.count()).toBe(0);
    expect(api!.requests.length).toBe(sent);
  });

  it('refuses an app that floods the page with requests, says so, and the page goes on', async () => {
    await appFrame().getByRole('button', { name: 'Flood the host' }).click();
    await appFrame()
      .getByText(/^Refused \d+$/)
      .waitFor({ timeout: 30_000 });
    const refused = Number(
      (await appFrame()
        .getByText(/^Refused \d+$/)
        .textContent())!.split(' ')[1],
    );
    expect(refused).toBeGreaterThanOrEqual(150);
    const notice = appSection().getByText('The app sent too many requests; the rest were refused.');
    await notice.waitFor();
    // The page still answers at once.
    expect(await page.evaluate(() => 1 + 1)).toBe(2);
    await box().fill('still typing');
    expect(await box().inputValue()).toBe('still typing');
    await box().fill('');
    // Once the limit lifts (its window is 10 s), the app's next request is taken and the notice goes.
    await expect
      .poll(
        async () => {
          await appFrame().getByRole('button', { name: 'Share with the model' }).click();
          return notice.count();
        },
        { timeout: 40_000, interval: 1000 },
      )
      .toBe(0);
  });

  it('follows the page’s theme, goes full screen and back', async () => {
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await appFrame().getByText('Theme dark').waitFor({ timeout: 15_000 });
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await appFrame().getByText('Theme light').waitFor({ timeout: 15_000 });
    await appSection().getByRole('button', { name: 'Full screen' }).click();
    await expect.poll(() => appSection().getAttribute('class')).toContain('mcp-app-fullscreen');
    const size = await appSection().boundingBox();
    expect(size?.height).toBeGreaterThan(400);
    await appSection().getByRole('button', { name: 'Exit full screen' }).click();
    await expect.poll(() => appSection().getAttribute('class')).not.toContain('mcp-app-fullscreen');
  });

  it('tears the app down when its card is far out of view and restores it from the stored result', async () => {
    const rolls = dice!.firstRolls;
    const story = Array.from({ length: 300 }, (_, i) => `Line ${i} of a long answer.`).join('\n\n');
    api!.script({ text: story });
    await send('Tell me a long story');
    await messages().getByText('Line 299 of a long answer.').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('iframe.mcp-app-frame').count(), { timeout: 15_000 }).toBe(0);
    await messages().evaluate((list) => list.parentElement!.scrollTo({ top: 0 }));
    await appFrame().getByText(`Rolled ${FIRST_ROLL}`).waitFor({ timeout: 30_000 });
    expect(dice!.firstRolls).toBe(rolls); // From the stored result: the tool did not run again.
    // Its new frame asks again to fill the window, and is again left in its card.
    await appFrame().getByText('Asked full screen, got inline').waitFor({ timeout: 15_000 });
    expect(await appSection().getAttribute('class')).not.toContain('mcp-app-fullscreen');
  });

  it('shows the plain result with a one-line notice when the app is not HTML', async () => {
    api!.script({ toolUses: [{ name: 'mcp__dice__broken', input: {} }] }, { text: 'Broken one done.' });
    await send('Use the broken tool');
    await messages().getByText('Broken one done.').waitFor({ timeout: 30_000 });
    await messages()
      .getByText('The app could not be shown: ui://dice/broken.html is not an app (its type is text/plain).')
      .waitFor({ timeout: 15_000 });
    await messages().locator('.mcp-app-fallback').getByText('Broken tool ran fine').waitFor();
  });

  it('with MCP Apps off in Settings, the plain result shows and no app frame is left', async () => {
    const apps = messages().getByRole('region', { name: 'App of Dice' });
    expect(await apps.count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('region', { name: 'Settings' });
    const on = settings.getByRole('checkbox', { name: 'Show interactive apps in tool results' });
    expect(await on.isChecked()).toBe(true);
    await on.click();
    await expect.poll(() => on.isChecked()).toBe(false);
    await settings.getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(() => apps.count()).toBe(0);
    expect(await page.locator('iframe.mcp-app-frame').count()).toBe(0);
    const card = messages().locator('details.tool-card', { hasText: 'roll' }).first();
    await card.locator(':scope > summary').click();
    await card.getByText(`Rolled ${FIRST_ROLL}`).waitFor();
  });

  it('leaves the page’s own CSP as it was: no inline script, no eval', async () => {
    const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(meta).toBe(CONTENT_SECURITY_POLICY);
    const response = await fetch(`${rig!.app.url}/`);
    expect(response.headers.get('content-security-policy')).toBe(SECURITY_HEADERS['Content-Security-Policy']);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval/);
  });
});
