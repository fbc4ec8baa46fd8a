/**
 * The chat's layout in the production build: at phone width (the sidebar folds; with Servers, Settings or the thread
 * settings open the message box stays in view), a tool call waiting for approval shown whole with a panel open, and
 * a thread of 2,000 messages that keeps only the rows near the view in the page.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import type { EverythingRig } from './app-page';
import { newThreadWithServer, openNewThread } from './app-steps';
import { startChatRig } from './chat-rig';

const SHOTS = 'test-results/screenshots';
let rig: EverythingRig | undefined;
let api: FakeAnthropic | undefined;
let page: Page;

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` });
const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message' });

const newThreadWithEverything = () => newThreadWithServer(page, 'Everything');

describe('the chat layout', () => {
  let pageErrors: string[] = [];
  let consoleLines: string[] = [];

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    rig = await startChatRig('sk-ant-chat-layout-e2e');
    ({ api, page, pageErrors, consoleLines } = rig);
    // A thread answered earlier, to open from the folded sidebar; then a newer one is open.
    await newThreadWithEverything();
    api.script({ text: 'Back online: here is your answer.' });
    await box().fill('Are you there?');
    await box().press('Enter');
    await messages().getByText('Back online: here is your answer.').waitFor({ timeout: 20_000 });
    await newThreadWithEverything();
  });

  afterAll(async () => {
    await rig?.close();
  });

  it('at phone width (390 px) the sidebar folds, the chat and composer fit and work', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const threadLinks = page.getByRole('navigation', { name: 'Threads' }).locator('.thread-link');
    await expect.poll(() => threadLinks.first().isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot('chat-4-phone');

    const toggle = page.getByRole('button', { name: /^Threads \(\d+\)/ });
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await shot('chat-5-phone-threads-open');
    await page.getByRole('button', { name: 'Are you there?', exact: true }).click();
    await messages().getByText('Back online: here is your answer.').waitFor();
    expect(await threadLinks.first().isVisible()).toBe(false);

    api!.script({ text: 'Answered on a phone.' });
    await box().fill('From my phone');
    const composer = await box().boundingBox();
    expect(composer && composer.y + composer.height).toBeLessThanOrEqual(844);
    await page.getByRole('button', { name: 'Send' }).click();
    await messages().getByText('Answered on a phone.').waitFor({ timeout: 15_000 });
    const answer = await messages().getByText('Answered on a phone.').boundingBox();
    expect(answer && answer.x >= 0 && answer.x + answer.width <= 390).toBe(true);
    await shot('chat-6-phone-answer');
    // A panel opened above the chat scrolls with it; the chat keeps its room below.
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.getByRole('textbox', { name: 'Server URL' }).waitFor();
    await shot('chat-8-phone-servers-open');
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('at phone width, with Servers, Settings or the thread settings open, the message box stays in view and takes typing; Escape or Close shuts a panel', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    /** The whole box is on screen and nothing covers it (its middle is the topmost element there). */
    const boxInView = async () => {
      const bounds = await box().boundingBox();
      const isOnScreen =
        bounds !== null &&
        bounds.x >= 0 &&
        bounds.y >= 0 &&
        bounds.x + bounds.width <= 390 &&
        bounds.y + bounds.height <= 844;
      const isOnTop = await box().evaluate((element) => {
        const rect = element.getBoundingClientRect();
        return document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2) === element;
      });
      return { isOnScreen, isOnTop };
    };
    const typeInBox = async (text: string) => {
      await box().click();
      await page.keyboard.type(text);
      expect(await box().inputValue()).toBe(text);
      expect(await boxInView()).toEqual({ isOnScreen: true, isOnTop: true });
      await box().fill('');
    };
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? null);

    for (const [name, field] of [
      ['Servers', page.getByRole('textbox', { name: 'Server URL' })],
      ['Settings', page.getByRole('spinbutton', { name: 'Preload count' })],
    ] as const) {
      const toggle = page.getByRole('button', { name, exact: true });
      const panel = page.getByRole('region', { name, exact: true });
      await toggle.click();
      await field.waitFor();
      await shot(`chat-9-phone-${name.toLowerCase()}-open`);
      await page.emulateMedia({ colorScheme: 'dark' });
      await shot(`chat-9-phone-${name.toLowerCase()}-open-dark`);
      if (name === 'Servers') {
        // The server's status stays readable on the dark panel (WCAG AA for text: 4.5:1).
        const ratio = await panel.getByText('Connected', { exact: true }).evaluate((badge) => {
          const channels = (colour: string) => (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
          const luminance = (colour: string) => {
            const [r, g, b] = channels(colour).map((v) =>
              v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4,
            );
            return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
          };
          let element: Element | null = badge;
          let background = 'rgba(0, 0, 0, 0)';
          while (element && background === 'rgba(0, 0, 0, 0)') {
            background = getComputedStyle(element).backgroundColor;
            element = element.parentElement;
          }
          const [a, b] = [luminance(getComputedStyle(badge).color), luminance(background)];
          return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        });
        expect(ratio).toBeGreaterThanOrEqual(4.5);
      }
      await page.emulateMedia({ colorScheme: null });
      expect(await boxInView()).toEqual({ isOnScreen: true, isOnTop: true });
      await typeInBox(`Typed with ${name} open`);
      expect(await panel.count()).toBe(1); // typing did not close it

      // Escape in a text field with half-typed text keeps the panel and the text (nothing typed is thrown away).
      if (name === 'Servers') {
        await field.fill('https://half-typed.example');
        await page.keyboard.press('Escape');
        expect(await panel.count()).toBe(1);
        expect(await field.inputValue()).toBe('https://half-typed.example');
        await field.fill('');
      }
      // From the keyboard: Escape in the panel shuts it, and focus goes back to the button that opened it.
      await field.focus();
      await page.keyboard.press('Escape');
      await expect.poll(() => panel.count()).toBe(0);
      expect(await toggle.getAttribute('aria-pressed')).toBe('false');
      expect(await focused()).toBe(name);

      // Opened from the keyboard, the panel takes the focus to its title; its Close button, next to it, is the next
      // Tab, and does the same.
      await page.keyboard.press('Enter');
      await field.waitFor();
      const title = panel.getByRole('heading', { name, level: 2 });
      await expect.poll(() => title.evaluate((element) => element === document.activeElement)).toBe(true);
      const close = panel.getByRole('button', { name: 'Close', exact: true });
      await page.keyboard.press('Tab');
      expect(await close.evaluate((element) => element === document.activeElement)).toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => panel.count()).toBe(0);
      expect(await focused()).toBe(name);
    }

    // The thread's own settings and servers, opened above the messages, leave the box in view too (on a phone they
    // are under the Thread menu).
    await page.getByRole('button', { name: 'Thread menu' }).click();
    await page.getByText('Thread settings', { exact: true }).click();
    await page.getByRole('textbox', { name: 'System prompt' }).waitFor();
    await shot('chat-10-phone-thread-settings-open');
    expect(await boxInView()).toEqual({ isOnScreen: true, isOnTop: true });
    await typeInBox('Typed with the thread settings open');
    await page.getByText('Thread settings', { exact: true }).click();
    await page.getByRole('button', { name: 'Thread menu' }).click();
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('Escape closes the Thread menu and puts focus back on its button, but not from a system prompt with text in it', async () => {
    const toggle = page.getByRole('button', { name: 'Thread menu' });
    const menuOpen = () => toggle.getAttribute('aria-expanded');
    const prompt = page.getByRole('textbox', { name: 'System prompt' });
    await toggle.click();
    await page.getByText('Thread settings', { exact: true }).click();
    await prompt.waitFor();

    // Half-written text in the menu stays, and so does the menu.
    await prompt.fill('Answer in French');
    await prompt.press('Escape');
    expect(await menuOpen()).toBe('true');
    expect(await prompt.inputValue()).toBe('Answer in French');
    await prompt.fill('');

    // From an empty field, Escape closes it; focus is on the button, and Enter opens it again.
    await prompt.press('Escape');
    await expect.poll(menuOpen).toBe('false');
    expect(await prompt.isVisible()).toBe(false);
    expect(await toggle.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(menuOpen).toBe('true');
    await page.keyboard.press('Escape'); // on the button itself
    await expect.poll(menuOpen).toBe('false');

    // Sending closes it, so the answer shows (as Servers and Settings close).
    await toggle.click();
    await expect.poll(menuOpen).toBe('true');
    api!.script({ text: 'Answered with the menu closed.' });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Sent with the thread menu open');
    await box.press('Enter');
    await expect.poll(menuOpen).toBe('false');
    // In the messages: once the turn ends, the thread list's preview says the same words.
    await page
      .getByRole('list', { name: 'Messages' })
      .getByText('Answered with the menu closed.')
      .waitFor({ timeout: 20_000 });
  });

  it('with a panel open, a tool call waiting for approval shows whole above the message box, and can be allowed (desktop and phone)', async () => {
    const card = page.locator('.approval');
    /** Every corner and the middle of the card are on screen and the card is what shows there (nothing covers it). */
    const isWhollyVisible = () =>
      card.evaluate((element) => {
        const r = element.getBoundingClientRect();
        const points = [
          [r.left + 4, r.top + 4],
          [r.right - 4, r.top + 4],
          [r.left + r.width / 2, r.top + r.height / 2],
          [r.left + 4, r.bottom - 4],
          [r.right - 4, r.bottom - 4],
        ];
        return points.every(
          ([x, y]) => x! < innerWidth && y! < innerHeight && element.contains(document.elementFromPoint(x!, y!)),
        );
      });
    for (const [width, height, panel, field] of [
      [1280, 860, 'Settings', page.getByRole('spinbutton', { name: 'Preload count' })],
      [390, 844, 'Servers', page.getByRole('textbox', { name: 'Server URL' })],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.getByRole('button', { name: panel, exact: true }).click();
      await field.waitFor();
      api!.script(
        { toolUses: [{ name: 'mcp__everything__echo', input: { message: `${width}` } }] },
        { text: `Echoed at ${width} px.` },
      );
      await box().fill('Echo with @echo please');
      await box().press('Enter');
      await card.waitFor({ timeout: 15_000 });
      // The person scrolls the column to its end, where the card is, and reads all of it before allowing.
      await page.mouse.move(width / 2, height / 2);
      await page.mouse.wheel(0, 10_000);
      await expect.poll(isWhollyVisible).toBe(true);
      await shot(`chat-11-approval-with-${panel.toLowerCase()}-open-${width}`);
      await card.getByRole('button', { name: 'Allow once' }).click();
      await messages().getByText(`Echoed at ${width} px.`).waitFor({ timeout: 15_000 });
      await page.getByRole('button', { name: panel, exact: true }).click();
    }
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it("at 200% zoom (640 × 400) and at 320 px, a call's long unbroken argument wraps, and the whole call can be read before answering", async () => {
    const value = `https://example.com/callback?session=1&token=${'abcdef'.repeat(12)}`;
    const args = page.locator('.approval pre.arguments');
    for (const [width, height] of [
      [640, 400],
      [320, 640],
    ] as const) {
      await page.setViewportSize({ width, height });
      api!.script(
        { toolUses: [{ name: 'mcp__everything__echo', input: { message: value } }] },
        { text: `Echoed ${width}.` },
      );
      await box().fill('Echo with @echo please');
      await box().press('Enter');
      await args.waitFor({ timeout: 15_000 });
      // Nothing of it is off to the side: the end of the token shows without scrolling sideways.
      expect(await args.evaluate((pre) => pre.scrollWidth - pre.clientWidth)).toBeLessThanOrEqual(1);
      // Scrolled to, all of it is on screen at once, with nothing (the call's buttons) over it.
      await args.evaluate((pre) => pre.scrollIntoView({ block: 'center' }));
      const covered = await args.evaluate((pre) => {
        const r = pre.getBoundingClientRect();
        const points = [
          [r.left + 4, r.top + 4],
          [r.right - 4, r.top + 4],
          [r.left + 4, r.bottom - 4],
          [r.right - 4, r.bottom - 4],
        ];
        return points.filter(([x, y]) => !pre.contains(document.elementFromPoint(x!, y!))).length;
      });
      await shot(`chat-12-approval-long-value-${width}`);
      expect(covered).toBe(0);
      await page.locator('.approval').getByRole('button', { name: 'Allow once' }).click();
      await messages().getByText(`Echoed ${width}.`).waitFor({ timeout: 15_000 });
    }
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('a thread of 2,000 messages opens at its end with only the rows near the view in the page, and scrolls to its start', async () => {
    await openNewThread(page);
    // Stored straight into the app's database (as a long-lived thread would be), then read by the app on reload.
    await page.evaluate(async () => {
      const settle = <T>(request: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error ?? new Error('request failed'));
        });
      const db = await settle(indexedDB.open('mcp-agent'));
      const threads = (await settle(db.transaction('threads').objectStore('threads').getAll())) as {
        id: string;
        title: string;
        createdAt: number;
      }[];
      const thread = threads.filter((t) => t.title === 'New thread').sort((a, b) => b.createdAt - a.createdAt)[0]!;
      const tx = db.transaction('messages', 'readwrite');
      for (let seq = 0; seq < 2000; seq++) {
        const role = seq % 2 === 0 ? 'user' : 'assistant';
        const text = `Message ${seq}${seq % 7 === 3 ? '\n\nwith a second paragraph to vary the row height' : ''}`;
        tx.objectStore('messages').put({
          id: `long-${seq}`,
          threadId: thread.id,
          seq,
          role,
          blocks: [{ type: 'text', text }],
          status: 'complete',
          trace: [],
          createdAt: seq,
          updatedAt: seq,
        });
      }
      await new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error ?? new Error('write failed'));
      });
      db.close();
    });
    await page.reload();
    await messages().getByText('Message 1999', { exact: true }).waitFor({ timeout: 15_000 });
    const rows = messages().locator(':scope > li');
    await expect.poll(() => messages().getByText('Message 1999', { exact: true }).isVisible()).toBe(true);
    expect(await rows.count()).toBeLessThan(40);
    await page.locator('.message-scroller').evaluate((element) => element.scrollTo({ top: 0 }));
    await expect.poll(() => messages().getByText('Message 0', { exact: true }).isVisible()).toBe(true);
    expect(await messages().getByText('Message 1999', { exact: true }).count()).toBe(0);
    expect(await rows.count()).toBeLessThan(40);
    await shot('chat-7-long-thread-top');
  });

  const scroller = () => page.locator('.message-scroller');
  const firstMessage = () => messages().getByText('Message 0', { exact: true });
  /** The 2,000-message thread opened again, at its end. */
  const reopenAtEnd = async () => {
    await page.reload();
    await expect.poll(() => messages().getByText('Message 1999', { exact: true }).isVisible()).toBe(true);
  };

  it('in that thread, a jump to the start holds while the page beside the list changes before its scroll is read', async () => {
    // The header changes in the same task as the jump, so before its scroll event: as when a server's "Connecting…"
    // goes just after the jump (the list, still following its end, pulled itself back there).
    await reopenAtEnd();
    await scroller().evaluate((element) => {
      element.scrollTo({ top: 0 });
      const note = document.createElement('span');
      note.className = 'test-header-change';
      document.querySelector('.chat-header')!.append(note);
    });
    await expect.poll(() => firstMessage().isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByRole('button', { name: 'Jump to latest' }).waitFor();
    expect(await scroller().evaluate((element) => element.scrollTop)).toBe(0);
    await page.locator('.test-header-change').evaluate((note) => note.remove());
  });

  it('in that thread, Ctrl+Home from the end reaches the start, on a slow machine too: rows measured on the way do not hold it short', async () => {
    // A CPU four times slower, as on a loaded machine: rows are measured while the list is still moving up.
    const session = await page.context().newCDPSession(page);
    try {
      for (const keys of ['Control+Home', 'Home']) {
        await session.send('Emulation.setCPUThrottlingRate', { rate: 1 });
        await reopenAtEnd();
        await session.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        await scroller().focus();
        await page.keyboard.press(keys);
        await expect.poll(() => firstMessage().isVisible(), { timeout: 10_000 }).toBe(true);
        await page.getByRole('button', { name: 'Jump to latest' }).waitFor();
        // Every row from the start to the view is measured by now; none moved the list off the start.
        await expect.poll(() => scroller().evaluate((element) => element.scrollTop), { timeout: 10_000 }).toBe(0);
        expect(await firstMessage().evaluate((row) => row.getBoundingClientRect().top)).toBeGreaterThanOrEqual(
          await scroller().evaluate((element) => element.getBoundingClientRect().top),
        );
      }
    } finally {
      await session.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await session.detach();
    }
  });

  it('raised no uncaught errors, and the policy refused nothing (the virtual rows are placed through the CSSOM)', () => {
    expect(pageErrors).toEqual([]);
    expect(consoleLines.filter((line) => /Refused to/i.test(line))).toEqual([]);
  });
});
