/**
 * The chat's layout in the production build at 1280 x 800, as a new person met it: the thread stays at its latest
 * message (after an approval, a sampling request, on opening and reloading) unless the person scrolled up; the
 * thread's header is one line and leaves the messages the height; a docked card's buttons are on screen at once and
 * the page never scrolls; after an answer, and after "New thread", the focus is in the message box.
 */
import { mkdir } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { startServerEverything, type ServerEverything } from '../fixtures/server-everything';
import { openAppPage, saveKeyAndBaseUrl } from './app-page';
import { startAppServer, type AppServer } from './app-server';
import { addServer, openNewThread, switchServerOn } from './app-steps';
import { distanceToEndOf, hasFocus, isOnScreen, isWhollyInList } from './layout-checks';
import type { LaunchedChromium } from './browser';

const SHOTS = 'test-results/screenshots';
const [WIDTH, HEIGHT] = [1280, 800];
let everything: ServerEverything | undefined;
let api: FakeAnthropic | undefined;
let app: AppServer | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;
let pageErrors: string[] = [];

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/layout-${name}.png` });
const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message', exact: true });
const scroller = () => page.locator('.message-scroller');
const samplingCard = () => page.getByRole('region', { name: 'Model request from Everything' });
/** A paragraph of `lines` lines, so rows are far taller than the list's first guess. */
const tall = (label: string, lines: number) =>
  Array.from({ length: lines }, (_, i) => `${label}, line ${i + 1}.`).join('\n\n');

const distanceToEnd = () => distanceToEndOf(scroller());
/** Neither the page nor the main column scrolled: the app's and the thread's headers stay where they are. */
const pageScroll = () => page.evaluate(() => ({ page: scrollY, main: document.querySelector('main')!.scrollTop }));

/** A new thread with Everything on. */
async function newThread(): Promise<void> {
  await openNewThread(page);
  await switchServerOn(page, 'Everything');
}

async function ask(text: string): Promise<void> {
  await box().fill(text);
  await box().press('Enter');
}

describe('the chat layout at 1280 x 800', () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    [everything, api, app] = await Promise.all([
      startServerEverything({ mode: 'streamableHttp' }),
      startFakeAnthropic(),
      startAppServer(),
    ]);
    ({ browser, page, pageErrors } = await openAppPage(app.url, { viewport: { width: WIDTH, height: HEIGHT } }));
    await saveKeyAndBaseUrl(page, 'sk-ant-layout-e2e', api.url);
    // Added by the person (not the deployer's), so its tools ask before they run.
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await addServer(page, 'Everything', everything.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await api?.stop();
    await everything?.stop();
  });

  it('"New thread" puts the focus in the message box', async () => {
    await newThread();
    await page.getByRole('button', { name: 'New thread', exact: true }).first().click();
    await expect.poll(() => hasFocus(box())).toBe(true);
  });

  it('after "Allow once" the final answer shows whole at the end, the page never scrolled, and the box has the focus', async () => {
    api!.script({ text: tall('A first answer', 14) });
    await ask('Start with something long');
    await messages().getByText('A first answer, line 14.').waitFor({ timeout: 30_000 });
    const header = await page.getByRole('heading', { level: 2 }).boundingBox();

    api!.script(
      { toolUses: [{ name: 'mcp__everything__echo', input: { message: tall('An argument', 20) } }] },
      { text: tall('The final answer', 8) },
    );
    await ask('Echo something long, then answer');
    const allow = page.getByRole('button', { name: 'Allow once' });
    await allow.waitFor({ timeout: 30_000 });
    await expect.poll(() => isOnScreen(allow)).toBe(true);
    expect(await pageScroll()).toEqual({ page: 0, main: 0 });
    expect((await page.getByRole('heading', { level: 2 }).boundingBox())!.y).toBe(header!.y);
    await expect.poll(distanceToEnd).toBeLessThanOrEqual(1); // The card made the list shorter: it kept to the end.
    await shot('1-approval');

    await allow.click();
    const last = messages().getByText('The final answer, line 8.');
    await last.waitFor({ timeout: 30_000 });
    await expect.poll(distanceToEnd).toBeLessThanOrEqual(1);
    await expect.poll(() => isWhollyInList(last)).toBe(true);
    expect(await pageScroll()).toEqual({ page: 0, main: 0 });
    expect(await hasFocus(box())).toBe(true);
    await shot('2-after-approval');
  });

  it('a thread opens and reloads at its end, however tall its rows', async () => {
    await expect.poll(distanceToEnd).toBeLessThanOrEqual(1);
    const other = (await page.getByRole('heading', { level: 2 }).textContent())!;
    await newThread();
    await page.getByRole('navigation', { name: 'Threads' }).getByRole('button', { name: other, exact: true }).click();
    await page.getByRole('heading', { name: other, level: 2 }).waitFor();
    await messages().getByText('The final answer, line 8.').waitFor();
    await expect.poll(distanceToEnd).toBeLessThanOrEqual(1);
    await expect.poll(() => isWhollyInList(messages().getByText('The final answer, line 8.'))).toBe(true);

    await page.reload();
    const last = messages().getByText('The final answer, line 8.');
    await last.waitFor({ timeout: 30_000 });
    await expect.poll(distanceToEnd).toBeLessThanOrEqual(1);
    await expect.poll(() => isWhollyInList(last)).toBe(true);
    await shot('3-reloaded');
  });

  it('a person who scrolled up stays there while an answer streams in; "Jump to latest" takes them back, and it follows again', async () => {
    // One delta a line, a moment apart: the answer grows while the person reads further up.
    api!.script({ text: tall('A slow answer', 40).split(/(?<=\n\n)/), delayMs: 150 });
    await ask('Answer slowly');
    await messages().getByText('A slow answer, line 2.').waitFor({ timeout: 30_000 });
    const list = (await scroller().boundingBox())!;
    await page.mouse.move(list.x + list.width / 2, list.y + list.height / 2);
    await page.mouse.wheel(0, -600);
    await expect.poll(distanceToEnd).toBeGreaterThan(300);
    const top = await scroller().evaluate((el) => el.scrollTop);
    await messages().getByText('A slow answer, line 40.').waitFor({ timeout: 60_000 });
    expect(Math.abs((await scroller().evaluate((el) => el.scrollTop)) - top)).toBeLessThanOrEqual(2);
    expect(await distanceToEnd()).toBeGreaterThan(300);
    await shot('4-scrolled-up-jump-to-latest');

    // "Jump to latest", shown while away from the end, brings it back into view and goes away.
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    expect(await jump.isVisible()).toBe(true);
    await jump.click();
    await expect.poll(distanceToEnd).toBeLessThanOrEqual(1);
    expect(await jump.count()).toBe(0);
    api!.script({ text: tall('Then another', 10) });
    await ask('And another');
    await messages().getByText('Then another, line 10.').waitFor({ timeout: 30_000 });
    await expect.poll(distanceToEnd).toBeLessThanOrEqual(1);
  });

  it('moving up to an earlier message without the wheel (find in page, a screen reader) lets go of the end', async () => {
    api!.script({ text: tall('Left alone', 30).split(/(?<=\n\n)/), delayMs: 100 });
    await ask('Answer while I look further up');
    await messages().getByText('Left alone, line 2.').waitFor({ timeout: 30_000 });
    await messages()
      .getByText('And another', { exact: true })
      .evaluate((el) => el.scrollIntoView());
    await expect.poll(distanceToEnd).toBeGreaterThan(300);
    const top = await scroller().evaluate((el) => el.scrollTop);
    await messages().getByText('Left alone, line 30.').waitFor({ timeout: 60_000 });
    expect(Math.abs((await scroller().evaluate((el) => el.scrollTop)) - top)).toBeLessThanOrEqual(2);
    // By keyboard: the button goes at the end, and the focus goes to the list (arrow keys read on), not to the page.
    await page.getByRole('button', { name: 'Jump to latest' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(distanceToEnd).toBeLessThanOrEqual(1);
    expect(await scroller().evaluate((e) => e === document.activeElement)).toBe(true);
  });

  it('a thread found by the search for a word of an earlier message opens at that message, the words marked', async () => {
    const long = (await page.getByRole('heading', { level: 2 }).textContent())!;
    await newThread();
    const search = page.getByRole('searchbox', { name: 'Search threads' });
    await search.fill('FIRST answer,  line 7');
    const row = page.getByRole('navigation', { name: 'Threads' }).getByRole('button', { name: long, exact: true });
    await page.locator('.thread-found').getByText('first answer, line 7').waitFor();
    await row.click();
    await page.getByRole('heading', { name: long, level: 2 }).waitFor();
    // The words, in a message far above the end (not in the page at all while the list shows its end), are on screen.
    const marked = () =>
      page.evaluate(() => {
        const ranges = [...(CSS.highlights.get('found-words') ?? [])] as Range[];
        // While the thread opens the list may not be drawn yet: nothing is in view then.
        const box = document.querySelector('.message-scroller')?.getBoundingClientRect();
        const rect = ranges[0]?.getBoundingClientRect();
        return {
          words: ranges.map((range) => range.toString()),
          isInView: box !== undefined && rect !== undefined && rect.top >= box.top && rect.bottom <= box.bottom,
        };
      });
    await expect.poll(marked).toEqual({ words: ['first answer, line 7'], isInView: true });
    expect(await messages().locator('.message-row.is-found').textContent()).toContain('A first answer, line 14.');
    expect(await distanceToEnd()).toBeGreaterThan(300);
    expect(await page.locator('.message-scroller > [role="status"]').textContent()).toBe(
      'Showing the message found for “first answer, line 7”.',
    );
    await shot('5-opened-at-found-message');
    // The list stays where the person is; "Jump to latest" takes them to the end.
    await page.getByRole('button', { name: 'Jump to latest' }).click();
    await expect.poll(distanceToEnd).toBeLessThanOrEqual(1);

    // Found in the thread's last answer (the words past its preview line): it opens at its end, and follows it.
    await newThread();
    await search.fill('LEFT ALONE, line 30');
    await page.locator('.thread-found').getByText('Left alone, line 30').waitFor();
    await row.click();
    await page.getByRole('heading', { name: long, level: 2 }).waitFor();
    await expect.poll(marked).toEqual({ words: ['Left alone, line 30'], isInView: true });
    await expect.poll(distanceToEnd).toBeLessThanOrEqual(1);
    expect(await page.getByRole('button', { name: 'Jump to latest' }).count()).toBe(0);
    // Opened again without a find, nothing stays outlined or marked (checked once its last answer shows again).
    await search.fill('');
    await row.click();
    await messages().getByText('Left alone, line 30.').waitFor();
    await expect.poll(() => messages().locator('.message-row.is-found').count()).toBe(0);
    expect((await marked()).words).toEqual([]);
  });

  it('"Jump to latest" goes when an edit leaves a thread short enough to show whole (no scroll to announce it)', async () => {
    await newThread();
    api!.script({ text: tall('A long first answer', 40) });
    await ask('Tell me at length');
    await messages().getByText('A long first answer, line 40.').waitFor({ timeout: 30_000 });
    const list = (await scroller().boundingBox())!;
    await page.mouse.move(list.x + list.width / 2, list.y + list.height / 2);
    await page.mouse.wheel(0, -4000);
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    await jump.waitFor();
    const question = messages().getByRole('listitem').filter({ hasText: 'Tell me at length' });
    await question.getByRole('button', { name: 'Edit' }).click();
    api!.script({ text: 'Short now.' });
    await page.getByRole('textbox', { name: 'Edit your message' }).fill('Tell me briefly');
    await page.getByRole('button', { name: 'Send edit' }).click();
    await messages().getByText('Short now.').waitFor({ timeout: 30_000 });
    expect(await scroller().evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true);
    await jump.waitFor({ state: 'detached' });
  });

  it('the thread header is one line and leaves the messages most of the height; the Thread menu does not push them out', async () => {
    const title = (await page.locator('.chat-title').boundingBox())!;
    expect(title.height).toBeLessThan(48);
    expect(await page.getByLabel('Tokens used in this thread').isVisible()).toBe(true);
    expect(await page.getByRole('group', { name: 'Servers in this thread' }).isVisible()).toBe(true);
    const list = (await scroller().boundingBox())!;
    console.log(`message list at ${WIDTH}x${HEIGHT}: ${Math.round(list.height)} px`);
    expect(list.height).toBeGreaterThanOrEqual(HEIGHT * 0.6);

    await page.getByRole('button', { name: 'Thread menu' }).click();
    await page.getByText('Thread settings', { exact: true }).click();
    const save = page.getByRole('button', { name: 'Save thread settings' });
    await save.scrollIntoViewIfNeeded();
    expect(await isOnScreen(save)).toBe(true);
    expect(await pageScroll()).toEqual({ page: 0, main: 0 });
    expect((await scroller().boundingBox())!.height).toBeGreaterThanOrEqual(128);
    expect(await isOnScreen(box())).toBe(true);
    await shot('4-thread-settings-open');
    await page.getByText('Thread settings', { exact: true }).click();
    await page.getByRole('button', { name: 'Thread menu' }).click();
    expect(await page.getByText('Thread settings', { exact: true }).isVisible()).toBe(false);
  });

  it('a sampling request shows its buttons on screen at once; after answering it the thread is at its end and the box has the focus', async () => {
    await newThread();
    api!.script({ text: tall('Some context', 12) });
    await ask('Give me some context first');
    await messages().getByText('Some context, line 12.').waitFor({ timeout: 30_000 });
    api!.script({
      toolUses: [
        { name: 'mcp__everything__trigger-sampling-request', input: { prompt: tall('poem', 12), maxTokens: 50 } },
      ],
    });
    await ask('Ask the server to sample');
    await page.getByRole('button', { name: 'Allow once' }).click({ timeout: 30_000 });
    const card = samplingCard();
    await card.waitFor({ timeout: 30_000 });
    const approve = card.getByRole('button', { name: 'Approve and run' });
    await expect.poll(() => isOnScreen(approve)).toBe(true);
    expect(await isOnScreen(card.getByRole('button', { name: 'Reject' }))).toBe(true);
    expect(await pageScroll()).toEqual({ page: 0, main: 0 });
    expect(await isOnScreen(page.getByRole('heading', { level: 2 }))).toBe(true);
    expect(await isOnScreen(box())).toBe(true);
    await shot('5-sampling-request');

    api!.script({ text: 'Steam curls upward' }, { text: tall('The server has its poem', 8) });
    await approve.press('Enter');
    const send = card.getByRole('button', { name: 'Send answer to Everything' });
    await send.waitFor({ timeout: 30_000 });
    await expect.poll(() => isOnScreen(send)).toBe(true);
    await send.click();
    const last = messages().getByText('The server has its poem, line 8.');
    await last.waitFor({ timeout: 30_000 });
    await expect.poll(() => card.count()).toBe(0);
    await expect.poll(distanceToEnd).toBeLessThanOrEqual(1);
    await expect.poll(() => isWhollyInList(last)).toBe(true);
    expect(await hasFocus(box())).toBe(true);
    expect(await pageScroll()).toEqual({ page: 0, main: 0 });
    await shot('6-sampling-answered');
  });

  it('a server question answered from the keyboard (Decline) gives the focus back to the message box', async () => {
    api!.script(
      { toolUses: [{ name: 'mcp__everything__trigger-elicitation-request', input: {} }] },
      { text: 'Understood, no details.' },
    );
    await ask('Ask me something, server');
    await page.getByRole('button', { name: 'Allow once' }).press('Enter', { timeout: 30_000 });
    const question = page.getByRole('region', { name: 'Request from Everything' });
    const decline = question.getByRole('button', { name: 'Decline' });
    await decline.waitFor({ timeout: 30_000 });
    expect(await isOnScreen(decline)).toBe(true);
    expect(await pageScroll()).toEqual({ page: 0, main: 0 });
    await decline.press('Enter');
    await messages().getByText('Understood, no details.').waitFor({ timeout: 30_000 });
    await expect.poll(() => hasFocus(box())).toBe(true);
    await expect.poll(distanceToEnd).toBeLessThanOrEqual(1);
  });

  it('with a prompt’s form open above the box, the messages keep a good part of the height and the page does not scroll', async () => {
    await box().click();
    await box().pressSequentially('/args');
    await page.getByRole('listbox', { name: 'Prompts of this thread’s servers' }).waitFor({ timeout: 30_000 });
    await box().press('Enter');
    const form = page.getByRole('form', { name: 'Prompt Arguments Prompt from Everything' });
    await form.waitFor();
    expect(await isOnScreen(form.getByRole('button', { name: 'Send prompt' }))).toBe(true);
    expect(await isOnScreen(form.getByRole('button', { name: 'Cancel' }))).toBe(true);
    const list = (await scroller().boundingBox())!;
    console.log(`message list with a prompt form open at ${WIDTH}x${HEIGHT}: ${Math.round(list.height)} px`);
    expect(list.height).toBeGreaterThanOrEqual(HEIGHT * 0.25);
    expect(await pageScroll()).toEqual({ page: 0, main: 0 });
    await shot('7-prompt-form');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => form.count()).toBe(0);
  });

  it('on a phone (390 x 844): a sampling request’s buttons are on screen; a tap answers it without raising the keyboard', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const session = await page.context().newCDPSession(page);
    await session.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
    /** A finger's tap in the middle of the element, as a phone sends it (pointer type "touch"). */
    const tap = async (locator: Locator) => {
      const r = (await locator.boundingBox())!;
      const point = { x: r.x + r.width / 2, y: r.y + r.height / 2 };
      await session.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
      await session.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    };
    // A long answer first, so the list is far taller than the screen when the cards come and go.
    api!.script({ text: tall('Before the phone request', 30) });
    await ask('A long answer first');
    await messages().getByText('Before the phone request, line 30.').waitFor({ timeout: 30_000 });
    api!.script({
      toolUses: [
        { name: 'mcp__everything__trigger-sampling-request', input: { prompt: tall('phone poem', 12), maxTokens: 50 } },
      ],
    });
    await ask('Sample on the phone');
    await tap(page.getByRole('button', { name: 'Allow once' }));
    const card = samplingCard();
    const reject = card.getByRole('button', { name: 'Reject' });
    await reject.waitFor({ timeout: 30_000 });
    await expect.poll(() => isOnScreen(card.getByRole('button', { name: 'Approve and run' }))).toBe(true);
    expect(await isOnScreen(reject)).toBe(true);
    expect(await isOnScreen(box())).toBe(true);
    expect(await pageScroll()).toEqual({ page: 0, main: 0 });
    await shot('8-phone-sampling');

    api!.script({ text: tall('Rejected on the phone', 6) });
    await tap(reject);
    const last = messages().getByText('Rejected on the phone, line 6.');
    await last.waitFor({ timeout: 30_000 });
    await expect.poll(distanceToEnd).toBeLessThanOrEqual(1);
    await expect.poll(() => isWhollyInList(last)).toBe(true);
    expect(await hasFocus(box())).toBe(false);
    await shot('9-phone-after');

    // The thread's settings open in the menu, fields as wide as the screen allows (nothing to scroll sideways).
    await tap(page.getByRole('button', { name: 'Thread menu' }));
    await tap(page.getByText('Thread settings', { exact: true }));
    const strategy = page.getByRole('combobox', { name: 'Tool search mode for this thread' });
    await strategy.waitFor();
    const menu = page.locator('.chat-header-more');
    expect(await menu.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    expect(await isOnScreen(box())).toBe(true);
    expect((await scroller().boundingBox())!.height).toBeGreaterThanOrEqual(100);
    await shot('10-phone-thread-settings');
    await tap(page.getByText('Thread settings', { exact: true }));
    await tap(page.getByRole('button', { name: 'Thread menu' }));
    await session.send('Emulation.setTouchEmulationEnabled', { enabled: false });
    await session.detach();
    await page.setViewportSize({ width: WIDTH, height: HEIGHT });
  });

  it('raised no uncaught errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
