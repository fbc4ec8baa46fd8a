/**
 * Threads in the production build (issue #22, item 3): New thread stores no empty threads, the list shows when each
 * thread last changed and the start of its latest answer, delete has Undo instead of the browser's confirm(), and
 * the address names the open thread (Back, Forward, a new tab).
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { openAppPage, saveKeyAndBaseUrl } from './app-page';
import { startAppServer, type AppServer } from './app-server';
import type { LaunchedChromium } from './browser';

const SHOTS = 'test-results/screenshots';
let app: AppServer | undefined;
let api: FakeAnthropic | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;
let pageErrors: string[] = [];
const dialogs: string[] = [];

const nav = () => page.getByRole('navigation', { name: 'Threads' });
const threadButtons = () => nav().locator('.thread-link');
const newThread = () => nav().locator('button.new-thread');
const box = () => page.getByRole('textbox', { name: 'Message' });
const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` });

async function chat(question: string, answer: string, shown = answer): Promise<void> {
  api!.script({ text: answer });
  await box().fill(question);
  await box().press('Enter');
  await page.getByRole('list', { name: 'Messages' }).getByText(shown).waitFor({ timeout: 20_000 });
}

describe('threads', () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    [api, app] = await Promise.all([startFakeAnthropic(), startAppServer()]);
    ({ browser, page, pageErrors } = await openAppPage(app.url, { viewport: { width: 1280, height: 800 } }));
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await saveKeyAndBaseUrl(page, 'sk-ant-threads', api.url);
    await page.getByRole('button', { name: 'Settings' }).click();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await api?.stop();
  });

  it('clicking New thread again and again stores one empty thread, not one per click', async () => {
    for (let i = 0; i < 4; i++) {
      await newThread().click();
      await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
    }
    await expect.poll(() => threadButtons().count()).toBe(1);
    await chat('Plan a trip to Oslo', 'Pack a warm coat: Oslo is cold in November.');
    for (let i = 0; i < 3; i++) {
      await newThread().click();
      await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
    }
    await expect.poll(() => threadButtons().count()).toBe(2);
    // Leaving the empty one for another thread does not keep it either.
    await nav().getByRole('button', { name: 'Plan a trip to Oslo', exact: true }).click();
    await expect.poll(() => threadButtons().count()).toBe(1);
    await page.reload();
    await page.getByRole('heading', { name: 'Plan a trip to Oslo' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => threadButtons().count()).toBe(1); // The list's chunk may come a moment after the thread.
  });

  it('each thread shows when it last changed and the start of its latest answer', async () => {
    await newThread().click();
    await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
    // Left from a thread with messages, the box is the focus again once the new one opens: typing goes there.
    await expect.poll(() => box().evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.type('Hi');
    expect(await box().inputValue()).toBe('Hi');
    await chat('Plan a trip to Rome', 'Rome is **mild** in November; bring an umbrella.', 'bring an umbrella');
    const rome = nav().getByRole('button', { name: 'Plan a trip to Rome', exact: true });
    await expect.poll(() => rome.textContent()).toContain('Rome is mild in November; bring an umbrella.');
    expect(await rome.textContent()).toContain('just now');
    const oslo = nav().getByRole('button', { name: 'Plan a trip to Oslo', exact: true });
    expect(await oslo.textContent()).toContain('Pack a warm coat');
    // Titles that begin alike are told apart by the line under them.
    expect(await rome.getAttribute('aria-describedby')).toBeTruthy();
    await shot('threads-1-list-desktop');
  });

  it('the search also reads every message: a word no title or preview holds finds its thread and shows where', async () => {
    await nav().getByRole('button', { name: 'Plan a trip to Rome', exact: true }).click();
    await page.getByRole('heading', { name: 'Plan a trip to Rome', exact: true }).waitFor();
    await chat('And the catacombs, are they open on Sundays?', 'Some are; check before you go.');
    const search = page.getByRole('searchbox', { name: 'Search threads' });
    const titles = () => nav().locator('.thread-link .thread-title').allTextContents();
    const found = () => nav().locator('.thread-found');
    // A word of the person's second message (case and spacing as typed differ), then one of an earlier answer.
    await search.fill('CATACOMBS,   are');
    await expect.poll(titles).toEqual(['Plan a trip to Rome']);
    expect(await found().textContent()).toBe('You: And the catacombs, are they open on Sundays?');
    expect(await found().locator('mark').textContent()).toBe('catacombs, are');
    const rome = nav().getByRole('button', { name: 'Plan a trip to Rome', exact: true });
    expect(await rome.getAttribute('aria-describedby')).toContain(await found().getAttribute('id'));
    await shot('threads-2-search-messages');
    await search.fill('umbrella');
    await expect.poll(() => found().textContent()).toBe('…in November; bring an umbrella.');
    expect(await titles()).toEqual(['Plan a trip to Rome']);
    // A title match shows no line of its own; nothing found says so once the messages are read.
    await search.fill('Oslo');
    await expect.poll(titles).toEqual(['Plan a trip to Oslo']);
    expect(await found().count()).toBe(0);
    await search.fill('nowhere-to-be-found');
    await nav().getByText('No thread matches.').waitFor();
    await search.fill('');
    await expect.poll(titles).toEqual(['Plan a trip to Rome', 'Plan a trip to Oslo']);
  });

  it('each thread keeps its own draft: what is typed in one is not sent to the next', async () => {
    const open = async (name: string) => {
      await nav().getByRole('button', { name, exact: true }).click();
      await page.getByRole('heading', { name, exact: true }).waitFor();
    };
    await open('Plan a trip to Rome');
    await box().fill('Half a question about Rome');
    await open('Plan a trip to Oslo');
    expect(await box().inputValue()).toBe('');
    await open('Plan a trip to Rome');
    expect(await box().inputValue()).toBe('Half a question about Rome');
    await box().fill('');
  });

  it('unsent text survives a reload, each thread its own; a sent message does not come back', async () => {
    const open = async (name: string) => {
      await nav().getByRole('button', { name, exact: true }).click();
      await page.getByRole('heading', { name, exact: true }).waitFor();
    };
    /** The text stored for a thread's box (IndexedDB's meta store), once typing has paused. */
    const stored = (threadId: string) =>
      page.evaluate(
        (key) =>
          new Promise<unknown>((resolve, reject) => {
            const request = indexedDB.open('mcp-agent');
            request.onerror = () => reject(new Error('open failed'));
            request.onsuccess = () => {
              const get = request.result.transaction('meta').objectStore('meta').get(key);
              get.onsuccess = () => {
                resolve((get.result as { value?: { text?: string } } | undefined)?.value?.text);
                request.result.close();
              };
            };
          }),
        `draft:${threadId}`,
      );
    const openId = () => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('thread'));
    await open('Plan a trip to Oslo');
    const oslo = (await openId())!;
    await box().fill('Is Oslo cold in May?');
    await expect.poll(() => stored(oslo)).toBe('Is Oslo cold in May?');
    await open('Plan a trip to Rome');
    const rome = (await openId())!;
    await box().fill('Rome, typed just before the reload');
    await expect.poll(() => stored(rome)).toBe('Rome, typed just before the reload');
    await page.reload();
    await page.getByRole('heading', { name: 'Plan a trip to Rome', exact: true }).waitFor();
    await expect.poll(() => box().inputValue()).toBe('Rome, typed just before the reload');
    await open('Plan a trip to Oslo');
    await expect.poll(() => box().inputValue()).toBe('Is Oslo cold in May?');
    // Sent: gone from storage at once, so a reload right after shows an empty box.
    api!.script({ text: 'Chilly, around 10 °C.' });
    await box().press('Enter');
    await page.getByRole('list', { name: 'Messages' }).getByText('Chilly, around 10 °C.').waitFor({ timeout: 20_000 });
    await expect.poll(() => stored(oslo)).toBeUndefined();
    await page.reload();
    await page.getByRole('heading', { name: 'Plan a trip to Oslo', exact: true }).waitFor();
    expect(await box().inputValue()).toBe('');
    await open('Plan a trip to Rome');
    await expect.poll(() => box().inputValue()).toBe('Rome, typed just before the reload');
    await box().fill('');
    await expect.poll(() => stored(rome)).toBeUndefined();
  });

  it('the address names the open thread: Back and Forward move between threads, and a new tab opens the one it names', async () => {
    const heading = (name: string, on = page) => on.getByRole('heading', { name, exact: true });
    await nav().getByRole('button', { name: 'Plan a trip to Oslo', exact: true }).click();
    await heading('Plan a trip to Oslo').waitFor();
    await expect.poll(() => page.url()).toMatch(/#thread=/);
    const osloUrl = page.url();
    await nav().getByRole('button', { name: 'Plan a trip to Rome', exact: true }).click();
    await heading('Plan a trip to Rome').waitFor();
    await expect.poll(() => page.url()).not.toBe(osloUrl);
    await page.goBack();
    await heading('Plan a trip to Oslo').waitFor();
    await page.goForward();
    await heading('Plan a trip to Rome').waitFor();
    // Oslo's address in a tab of its own opens Oslo, though start-up alone would reopen Rome (the last one opened).
    const other = await browser!.context.newPage();
    try {
      await other.goto(osloUrl);
      await heading('Plan a trip to Oslo', other).waitFor({ timeout: 15_000 });
    } finally {
      await other.close();
    }
  });

  it('delete hides the thread with Undo (no confirm dialog); Undo brings it back, dismissing deletes it for good', async () => {
    await nav().getByRole('button', { name: 'Delete thread Plan a trip to Oslo' }).click();
    await expect.poll(() => threadButtons().count()).toBe(1);
    const toast = page.getByRole('status').filter({ hasText: 'Deleted “Plan a trip to Oslo”.' });
    await toast.waitFor();
    // The title is there to read, not cut to "Deleted …" by the buttons beside it.
    const title = toast.locator('span').first();
    expect(await title.evaluate((e) => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight)).toBe(true);
    await shot('threads-2-undo');
    await toast.getByRole('button', { name: 'Undo' }).click();
    await nav().getByRole('button', { name: 'Plan a trip to Oslo', exact: true }).waitFor();
    expect(await threadButtons().count()).toBe(2);

    await nav().getByRole('button', { name: 'Delete thread Plan a trip to Oslo' }).click();
    await page.getByRole('button', { name: 'Dismiss (delete now)' }).click();
    await page.getByRole('button', { name: 'Undo' }).waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { name: 'Plan a trip to Rome' }).waitFor({ timeout: 15_000 });
    // The list comes from its own chunk, fetched beside start-up's: it may show a moment after the thread.
    await expect.poll(() => nav().locator('.thread-title').allTextContents()).toEqual(['Plan a trip to Rome']);
    expect(dialogs).toEqual([]);
  });

  it('deleting the open thread closes it; Undo reopens it', async () => {
    await nav().getByRole('button', { name: 'Delete thread Plan a trip to Rome' }).click();
    await page.getByText('Ask anything below to start a new thread.').waitFor();
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('heading', { name: 'Plan a trip to Rome' }).waitFor();
    // Its messages load after its heading shows (on a busy machine, a moment later): they come back, once.
    const umbrella = page.getByRole('list', { name: 'Messages' }).getByText('bring an umbrella');
    await expect.poll(() => umbrella.count(), { timeout: 15_000 }).toBe(1);
  });

  it('with no thread open, the box takes the first message and it starts a new thread', async () => {
    await nav().getByRole('button', { name: 'Delete thread Plan a trip to Rome' }).click();
    await page.getByText('Ask anything below to start a new thread.').waitFor();
    const count = await threadButtons().count();
    expect(await box().isDisabled()).toBe(false);
    await chat('Which fjord should I see first?', 'Geirangerfjord.');
    await page.getByRole('heading', { name: 'Which fjord should I see first?', exact: true }).waitFor();
    await expect.poll(() => threadButtons().count()).toBe(count + 1);
    expect(await box().inputValue()).toBe('');
    // Rome comes back and is opened, as the tests after this expect.
    await page.getByRole('button', { name: 'Undo' }).click();
    await nav().getByRole('button', { name: 'Plan a trip to Rome', exact: true }).click();
    await page.getByRole('heading', { name: 'Plan a trip to Rome', exact: true }).waitFor();
  });

  it('a thread open in another tab closes there when deleted here, saying why; Undo here opens it there again', async () => {
    const other = await browser!.context.newPage();
    try {
      await other.goto(page.url());
      await other.getByRole('heading', { name: 'Plan a trip to Rome', exact: true }).waitFor({ timeout: 15_000 });
      await nav().getByRole('button', { name: 'Delete thread Plan a trip to Rome' }).click();
      // A note, not an alarm: nothing failed.
      await other.getByRole('status').filter({ hasText: 'This thread was deleted in another tab.' }).waitFor();
      expect(await other.getByText('Storage problem').count()).toBe(0);
      await other.getByText('Ask anything below to start a new thread.').waitFor();
      await other.screenshot({ path: `${SHOTS}/threads-deleted-elsewhere.png` });
      await page.getByRole('button', { name: 'Undo' }).click();
      await other.getByRole('heading', { name: 'Plan a trip to Rome', exact: true }).waitFor();
      expect(await other.getByText('This thread was deleted in another tab.').count()).toBe(0);
    } finally {
      await other.close();
    }
    await page.getByRole('heading', { name: 'Plan a trip to Rome' }).waitFor();
  });

  it('by keyboard, focus follows Rename, Delete and Undo rather than falling to the page', async () => {
    const isFocused = (locator: ReturnType<Page['locator']>) => locator.evaluate((e) => e === document.activeElement);
    const link = (title: string) => nav().getByRole('button', { name: title, exact: true });
    const rename = async (from: string, to?: string) => {
      await nav()
        .getByRole('button', { name: `Rename thread ${from}` })
        .focus();
      await page.keyboard.press('Enter');
      const field = nav().getByRole('textbox', { name: 'Thread title' });
      if (to === undefined) await field.press('Escape');
      else {
        await field.fill(to);
        await field.press('Enter');
      }
      await expect.poll(() => isFocused(link(to ?? from))).toBe(true);
    };
    await rename('Plan a trip to Rome');
    await rename('Plan a trip to Rome', 'Rome in spring');
    await rename('Rome in spring', 'Plan a trip to Rome');

    await nav().getByRole('button', { name: 'Delete thread Plan a trip to Rome' }).focus();
    await page.keyboard.press('Enter');
    const undo = page.locator('.undo-toast').getByRole('button', { name: 'Undo' });
    await expect.poll(() => isFocused(undo)).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Plan a trip to Rome' }).waitFor();
    await expect.poll(() => isFocused(link('Plan a trip to Rome'))).toBe(true);
  });

  it('at phone width the list shows the same dates and previews', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: /^Threads \(\d+\)/ }).click();
    await nav().getByRole('button', { name: 'Plan a trip to Rome', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot('threads-3-list-phone');
    expect(pageErrors).toEqual([]);
  });

  it('at phone width the Undo toast covers none of the composer or the header, and goes once its time is up', async () => {
    await page.clock.install(); // The page's timers from here on follow the test's clock.
    await newThread().click();
    await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
    await chat('Plan a trip to Lima', 'Lima is mild and dry.');
    await page.getByRole('button', { name: /^Threads \(\d+\)/ }).click();
    await nav().getByRole('button', { name: 'Delete thread Plan a trip to Lima' }).click();
    const toast = page.locator('.undo-toast');
    await toast.waitFor();
    await page.getByRole('button', { name: /^Threads \(\d+\)/ }).click(); // Fold the list: the composer shows.
    const covered = await toast.boundingBox();
    const header = ['Servers', 'Settings', /^Threads \(\d+\)/, 'New thread'].map((name) =>
      page.getByRole('button', { name, exact: typeof name === 'string' }),
    );
    for (const part of [box(), page.getByRole('button', { name: 'Send', exact: true }), ...header]) {
      const r = (await part.boundingBox())!;
      const overlaps =
        covered!.x < r.x + r.width &&
        r.x < covered!.x + covered!.width &&
        covered!.y < r.y + r.height &&
        r.y < covered!.y + covered!.height;
      expect(overlaps).toBe(false);
    }
    await shot('threads-4-undo-phone');
    await page.clock.fastForward(11_000); // Undo lasts 10 s.
    await toast.waitFor({ state: 'detached', timeout: 15_000 });
    await page.reload();
    await page.getByRole('button', { name: /^Threads \(\d+\)/ }).click();
    await nav().getByRole('button', { name: 'Plan a trip to Rome', exact: true }).waitFor({ timeout: 15_000 });
    expect(await nav().getByRole('button', { name: 'Plan a trip to Lima', exact: true }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("Undo's time stands still while focus is on it, and runs again, whole, once focus leaves", async () => {
    // The page's timers still follow the test's clock (installed above).
    await newThread().click();
    await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
    await chat('Plan a trip to Quito', 'Quito is high and cool.');
    await page.getByRole('button', { name: /^Threads \(\d+\)/ }).click();
    const toast = page.locator('.undo-toast');
    const undo = toast.getByRole('button', { name: 'Undo' });
    const deleteByKeyboard = async () => {
      await nav().getByRole('button', { name: 'Delete thread Plan a trip to Quito' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => undo.evaluate((e) => e === document.activeElement)).toBe(true);
    };
    await deleteByKeyboard();
    await page.clock.fastForward(30_000);
    expect(await toast.count()).toBe(1);
    // Undo pressed with the pointer over the toast: it goes with the pointer on it, which holds no later deletion.
    // (Enter, not a click: under the installed clock a click does not reach the page's handler.)
    await toast.hover();
    await undo.press('Enter');
    await toast.waitFor({ state: 'detached' });
    await page.mouse.move(1, 1);
    await nav().getByRole('button', { name: 'Plan a trip to Quito', exact: true }).waitFor();

    await deleteByKeyboard();
    await page.getByRole('button', { name: /^Threads \(\d+\)/ }).focus();
    await page.clock.fastForward(9_000);
    expect(await toast.count()).toBe(1); // 10 s from when focus left, not from the delete.
    await page.clock.fastForward(2_000);
    await toast.waitFor({ state: 'detached', timeout: 15_000 });
    expect(pageErrors).toEqual([]);
  });
});
