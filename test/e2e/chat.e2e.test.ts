/**
 * The chat in the production build: the composer's @ autocomplete (keyboard only) and the tool it loads, Retry
 * after an overloaded API, a turn's trace and the thread's token total, and the layout at phone width.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import { DEFER_ALL_APP_CONFIG, startEverythingRig, type EverythingRig, saveKeyAndBaseUrl } from './app-page';

const SHOTS = 'test-results/screenshots';
let rig: EverythingRig | undefined;
let api: FakeAnthropic | undefined;
let everything: EverythingRig['everything'] | undefined;
let page: Page;

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` });
const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message' });
const mentionList = () => page.getByRole('listbox', { name: 'Servers and tools to mention' });
/** A count as the page writes it, whatever the browser's locale groups digits with. */
const count = (n: number) => new RegExp(String(n).replace(/\B(?=(\d{3})+$)/g, '[,.\\s\u00a0\u202f]?'));

async function newThreadWithEverything(): Promise<void> {
  // The first is the sidebar's button; a thread not yet titled is named "New thread" too.
  await page.getByRole('button', { name: 'New thread', exact: true }).first().click();
  // Until the new thread shows, the switch on screen is the previous thread's.
  await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
  await page.getByRole('switch', { name: 'Everything', exact: true }).check();
}

describe('the chat', () => {
  let pageErrors: string[] = [];
  let consoleLines: string[] = [];

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    // Defer every tool and preload none: a tool reaches the model only when mentioned (or searched).
    rig = await startEverythingRig({ appConfig: DEFER_ALL_APP_CONFIG });
    ({ everything, api, page, pageErrors, consoleLines } = rig);
    await saveKeyAndBaseUrl(page, 'sk-ant-chat-e2e', api.url);
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.getByRole('textbox', { name: 'Server name' }).fill('Everything');
    await page.getByRole('textbox', { name: 'Server URL' }).fill(everything.url);
    await page.getByRole('button', { name: 'Add server' }).click();
    await page
      .getByRole('listitem', { name: 'Everything' })
      .filter({ hasText: 'Connected' })
      .waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Servers' }).click();
  });

  afterAll(async () => {
    await rig?.close();
  });

  it('@ autocomplete: picks a tool with the keyboard, and the next model call carries that tool', async () => {
    await newThreadWithEverything();
    await box().click();
    await page.keyboard.type('Say hi @');
    await mentionList().waitFor();
    expect(await mentionList().getByRole('option').first().textContent()).toContain('@Everything');
    await page.keyboard.press('Escape');
    expect(await mentionList().count()).toBe(0);
    await page.keyboard.press('Backspace');

    await page.keyboard.type('through @ech');
    const options = mentionList().getByRole('option');
    await expect.poll(() => options.allTextContents()).toEqual([expect.stringMatching(/^echo\s*Everything$/)]);
    await page.keyboard.type('x');
    await page.getByText('No server or tool of this thread matches “echx”.').waitFor();
    for (let i = 0; i < 3; i++) await page.keyboard.press('Backspace');
    // "@e": the server, echo and more; walk to echo with the arrows (one too far, then back up).
    await expect.poll(() => options.count()).toBeGreaterThan(2);
    const labels = await options.allTextContents();
    const target = labels.findIndex((label) => /^echo\s*Everything$/.test(label));
    expect(target).toBeGreaterThanOrEqual(0);
    for (let i = 0; i <= target; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    const activeId = await box().getAttribute('aria-activedescendant');
    expect(await page.locator(`[id="${activeId}"]`).textContent()).toMatch(/^echo/);
    expect(await page.locator(`[id="${activeId}"]`).getAttribute('aria-selected')).toBe('true');
    await shot('chat-1-mention-autocomplete');
    await page.keyboard.press('Enter');
    expect(await mentionList().count()).toBe(0);
    expect(await box().inputValue()).toBe('Say hi through @echo ');

    // Shift+Enter is a new line; with the list closed, Enter sends.
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('please');
    api!.script({ text: 'Echo is loaded.' });
    await page.keyboard.press('Enter');
    await messages().getByText('Echo is loaded.').waitFor({ timeout: 15_000 });
    const request = api!.requests.at(-1)!;
    expect(request.toolNames).toEqual(['tool_search', 'mcp__everything__echo', 'execute_code']);
    expect(request.body.messages.at(-1)).toEqual({
      role: 'user',
      // The newest block carries the moving cache breakpoint (written for the next request).
      content: [{ type: 'text', text: 'Say hi through @echo \nplease', cache_control: { type: 'ephemeral' } }],
    });
  });

  it('a tool pinned in the thread is in the next request; unpinned, it is not; the thread’s deferral "Never" sends all', async () => {
    await newThreadWithEverything();
    const pins = page.locator('details.pinned-tools');
    await pins.getByText('Pinned tools (0)').click();
    const echo = pins.getByRole('checkbox', { name: 'Pin echo (Everything)' });
    await echo.check();
    await pins.getByText('Pinned tools (1)').waitFor();
    await shot('chat-1b-pinned-tool');
    api!.script({ text: 'Pinned echo is here.' });
    await box().fill('Which tools do you have?');
    await box().press('Enter');
    await messages().getByText('Pinned echo is here.').waitFor({ timeout: 15_000 });
    expect(api!.requests.at(-1)!.toolNames).toEqual(['tool_search', 'mcp__everything__echo', 'execute_code']);

    await echo.uncheck();
    await pins.getByText('Pinned tools (0)').waitFor();
    api!.script({ text: 'Echo is gone.' });
    await box().fill('And now?');
    await box().press('Enter');
    await messages().getByText('Echo is gone.').waitFor({ timeout: 15_000 });
    expect(api!.requests.at(-1)!.toolNames).not.toContain('mcp__everything__echo');

    await pins.getByRole('combobox', { name: 'Deferral in this thread' }).selectOption('never');
    await expect.poll(() => pins.getByRole('combobox', { name: 'Deferral in this thread' }).inputValue()).toBe('never');
    api!.script({ text: 'Every tool is here.' });
    await box().fill('And with deferral off?');
    await box().press('Enter');
    await messages().getByText('Every tool is here.').waitFor({ timeout: 15_000 });
    const names = api!.requests.at(-1)!.toolNames;
    expect(names).not.toContain('tool_search');
    expect(names).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum']));
    await pins.getByText(/Pinned tools/).click();
  });

  it('an overloaded API shows the error with Retry; Retry answers with the person message sent once', async () => {
    await newThreadWithEverything();
    const before = api!.requests.length;
    // The SDK retries 529 twice by itself; the third failure reaches the person.
    api!.script(
      { error: { status: 529 } },
      { error: { status: 529 } },
      { error: { status: 529 } },
      { text: 'Back online: here is your answer.' },
    );
    await box().fill('Are you there?');
    await box().press('Enter');
    const alert = messages().getByRole('alert');
    await alert.waitFor({ timeout: 20_000 });
    expect(await alert.textContent()).toContain('The API is overloaded right now (529)');
    expect(api!.requests.length - before).toBe(3);
    // The failed answer offers one way on: Retry, not Regenerate beside it.
    const failed = messages()
      .getByRole('listitem')
      .filter({ has: page.getByRole('alert') });
    expect(await failed.getByRole('button', { name: 'Retry' }).count()).toBe(1);
    expect(await failed.getByRole('button', { name: 'Regenerate' }).count()).toBe(0);
    await shot('chat-2-error-retry');

    // From the keyboard (a click or tap leaves focus alone: on a phone it would raise the keyboard).
    await messages().getByRole('button', { name: 'Retry' }).focus();
    await page.keyboard.press('Enter');
    await messages().getByText('Back online: here is your answer.').waitFor({ timeout: 15_000 });
    expect(await messages().getByRole('button', { name: 'Retry' }).count()).toBe(0);
    // The answer that came offers Regenerate.
    const answered = messages().getByRole('listitem').filter({ hasText: 'Back online: here is your answer.' });
    expect(await answered.getByRole('button', { name: 'Regenerate' }).count()).toBe(1);
    // The Retry button is gone; focus went to the message box, not to the page.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message');
    expect(await messages().getByText('Are you there?', { exact: true }).count()).toBe(1);
    expect(
      await messages()
        .getByText(/^This attempt failed: The API is overloaded/)
        .count(),
    ).toBe(1);
    expect(api!.requests.at(-1)?.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Are you there?', cache_control: { type: 'ephemeral' } }] },
    ]);
    // After a reload it is the same: one person message, the answer.
    await page.reload();
    await messages().getByText('Back online: here is your answer.').waitFor({ timeout: 15_000 });
    expect(await messages().getByText('Are you there?', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('switch', { name: 'Everything', exact: true }).isChecked()).toBe(true);
  });

  it("the trace shows each model call's tokens and the tool call; the header shows the thread's total", async () => {
    await newThreadWithEverything();
    api!.script(
      {
        toolUses: [{ name: 'mcp__everything__echo', input: { message: 'traced' } }],
        usage: {
          input_tokens: 1234,
          output_tokens: 56,
          cache_read_input_tokens: 789,
          cache_creation_input_tokens: 321,
        },
      },
      {
        text: 'The echo came back.',
        usage: { input_tokens: 2000, output_tokens: 44, cache_read_input_tokens: 1000, cache_creation_input_tokens: 0 },
      },
    );
    await box().fill('Echo "traced" with @echo please');
    await box().press('Enter');
    await page.getByRole('button', { name: 'Allow once' }).click({ timeout: 15_000 });
    await messages().getByText('The echo came back.').waitFor({ timeout: 15_000 });

    const total = page.getByLabel('Tokens used in this thread');
    await expect.poll(() => total.textContent()).toMatch(count(3234));
    const totalText = (await total.textContent()) ?? '';
    // All the input the model read, then how much of it was new and how much the cache held or took.
    expect(totalText).toMatch(/5[^\d]?344 in \(3[^\d]?234 new, 1[^\d]?789 cache read, 321 cache write\)/);
    expect(totalText).toMatch(/100 out/);
    // Claude Sonnet 5 at $2 in, $10 out, $2.50 cache write, $0.20 cache read per million tokens (issue #17).
    expect(totalText).toContain('$0.0086');

    const toggle = messages()
      .getByRole('button', { name: /^Trace/ })
      .last();
    expect(await toggle.textContent()).toContain('2 model calls · 1 tool call');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const trace = messages().getByRole('region', { name: 'Trace of this turn' });
    const calls = trace.getByRole('listitem').filter({ hasText: 'Model call' });
    expect(await calls.count()).toBe(2);
    const first = (await calls.first().textContent()) ?? '';
    for (const n of [1234, 56, 789, 321]) expect(first).toMatch(count(n));
    expect(first).toContain('stop: tool_use');
    expect(first).toContain('$0.0040'); // 1,234 in, 56 out, 321 written, 789 read at Sonnet 5's prices
    const toolCall = (await trace.getByRole('listitem').filter({ hasText: 'Tool call' }).textContent()) ?? '';
    expect(toolCall).toMatch(/Everything · echo/);
    expect(toolCall).toMatch(/\d+ ms · ok · allowed once \(person\)/);
    await shot('chat-3-trace-desktop');
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

      // Its Close button, next to its title, reached with Tab from the button that opened it, does the same.
      await page.keyboard.press('Enter');
      await field.waitFor();
      const close = panel.getByRole('button', { name: 'Close', exact: true });
      for (let i = 0; i < 20 && !(await close.evaluate((element) => element === document.activeElement)); i++)
        await page.keyboard.press('Tab');
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

  it('a thread of 2,000 messages opens at its end with only the rows near the view in the page, and scrolls to its start', async () => {
    await page.getByRole('button', { name: 'New thread', exact: true }).first().click();
    await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
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

  it('raised no uncaught errors, and the policy refused nothing (the virtual rows are placed through the CSSOM)', () => {
    expect(pageErrors).toEqual([]);
    expect(consoleLines.filter((line) => /Refused to/i.test(line))).toEqual([]);
  });
});
