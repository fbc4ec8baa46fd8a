/**
 * The chat in the production build: the composer's @ autocomplete (keyboard only) and the tool it loads, pinned
 * tools, Retry after an overloaded API, and a turn's trace and the thread's token total. The layout at phone width
 * and with panels open, and a long thread: chat-layout.e2e.test.ts.
 */
import { mkdir, stat } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import type { EverythingRig } from './app-page';
import { newThreadWithServer } from './app-steps';
import { startChatRig } from './chat-rig';

const SHOTS = 'test-results/screenshots';
let rig: EverythingRig | undefined;
let api: FakeAnthropic | undefined;
let page: Page;

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` });
const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message' });
const mentionList = () => page.getByRole('listbox', { name: 'Servers and tools to mention' });
/** A count as the page writes it, whatever the browser's locale groups digits with. */
const count = (n: number) => new RegExp(String(n).replace(/\B(?=(\d{3})+$)/g, '[,.\\s\u00a0\u202f]?'));

const newThreadWithEverything = () => newThreadWithServer(page, 'Everything');

describe('the chat', () => {
  let pageErrors: string[] = [];
  let consoleLines: string[] = [];

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    rig = await startChatRig('sk-ant-chat-e2e');
    ({ api, page, pageErrors, consoleLines } = rig);
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
    const menu = page.getByRole('button', { name: 'Thread menu' });
    // The pinned tools are under it; sending closes it (so the answer shows), and it opens again as it was.
    const openMenu = async () => {
      await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
      await menu.click();
    };
    await menu.click();
    await pins.getByText('Deferral and pinned tools (0)').click();
    const echo = pins.getByRole('checkbox', { name: 'Pin echo (Everything)' });
    await echo.check();
    await pins.getByText('Deferral and pinned tools (1)').waitFor();
    await shot('chat-1b-pinned-tool');
    api!.script({ text: 'Pinned echo is here.' });
    await box().fill('Which tools do you have?');
    await box().press('Enter');
    await messages().getByText('Pinned echo is here.').waitFor({ timeout: 15_000 });
    expect(api!.requests.at(-1)!.toolNames).toEqual(['tool_search', 'mcp__everything__echo', 'execute_code']);

    // With its server off in the thread the pin is kept, and the section says so rather than count it gone.
    await openMenu();
    const everything = page.getByRole('switch', { name: 'Everything', exact: true });
    await everything.uncheck();
    await pins.getByText('Deferral and pinned tools (0) · 1 more not sent now').waitFor();
    await pins
      .getByText(
        'Kept, but not sent while their server is off in this thread, or the tool is switched off or no longer listed: echo (Everything).',
      )
      .waitFor();
    await everything.check();
    await pins.getByText('Deferral and pinned tools (1)').waitFor();
    expect(await pins.getByText(/more not sent now/).count()).toBe(0);
    await menu.click();

    await openMenu();
    await echo.uncheck();
    await pins.getByText('Deferral and pinned tools (0)').waitFor();
    api!.script({ text: 'Echo is gone.' });
    await box().fill('And now?');
    await box().press('Enter');
    await messages().getByText('Echo is gone.').waitFor({ timeout: 15_000 });
    expect(api!.requests.at(-1)!.toolNames).not.toContain('mcp__everything__echo');

    await openMenu();
    await pins.getByRole('combobox', { name: 'Deferral in this thread' }).selectOption('never');
    await expect.poll(() => pins.getByRole('combobox', { name: 'Deferral in this thread' }).inputValue()).toBe('never');
    api!.script({ text: 'Every tool is here.' });
    await box().fill('And with deferral off?');
    await box().press('Enter');
    await messages().getByText('Every tool is here.').waitFor({ timeout: 15_000 });
    const names = api!.requests.at(-1)!.toolNames;
    expect(names).not.toContain('tool_search');
    expect(names).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum']));
    await openMenu();
    await pins.getByText(/Deferral and pinned tools/).click();
    await menu.click();
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
    // The answer that came offers Regenerate, once it is complete (its text shows while it is still streaming).
    const answered = messages().getByRole('listitem').filter({ hasText: 'Back online: here is your answer.' });
    await expect.poll(() => answered.getByRole('button', { name: 'Regenerate' }).count()).toBe(1);
    // The Retry button is gone; focus went to the message box, not to the page.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message');
    expect(await messages().getByText('Are you there?', { exact: true }).count()).toBe(1);
    expect(
      await messages()
        .getByText(/^This attempt failed: The API is overloaded/)
        .count(),
    ).toBe(1);
    // The earlier attempt's note starts at its card's padding: no empty band above it (a paragraph's margins made one).
    const bandAbove = await messages()
      .getByText(/^This attempt failed: The API is overloaded/)
      .evaluate((note) => note.getBoundingClientRect().top - note.closest('.message')!.getBoundingClientRect().top);
    expect(bandAbove).toBeLessThan(14); // 0.6rem of padding and the border: 10.6 px
    expect(api!.requests.at(-1)?.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Are you there?', cache_control: { type: 'ephemeral' } }] },
    ]);
    // After a reload it is the same: one person message, the answer.
    await page.reload();
    await messages().getByText('Back online: here is your answer.').waitFor({ timeout: 15_000 });
    expect(await messages().getByText('Are you there?', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('switch', { name: 'Everything', exact: true }).isChecked()).toBe(true);
  });

  it('an answer that ends while focus is on Stop leaves focus in the message box, not at the page start', async () => {
    await newThreadWithEverything();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    api!.script({ text: ['The answer ', 'after a pause.'], holdAfterChunks: { afterChunks: 1, until: held } });
    await box().fill('Take your time.');
    await box().press('Enter');
    const stop = page.getByRole('button', { name: 'Stop' });
    await stop.focus();
    release();
    await messages().getByText('The answer after a pause.').waitFor({ timeout: 15_000 });
    await stop.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message');
  });

  it('after Stop was tapped on a phone, the answer ending leaves focus alone (no keyboard raised over it)', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    api!.script({ text: ['Tapped ', 'and left alone.'], holdAfterChunks: { afterChunks: 1, until: held } });
    await box().fill('Take your time again.');
    await box().press('Enter');
    const stop = page.getByRole('button', { name: 'Stop' });
    await stop.focus();
    // A touch on Stop (the page tells a tap by its pointer type), not pressing it.
    await stop.dispatchEvent('pointerdown', { pointerType: 'touch', bubbles: true });
    release();
    await messages().getByText('Tapped and left alone.').waitFor({ timeout: 15_000 });
    await stop.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? 'none')).not.toBe('Message');
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
    await expect.poll(() => total.innerText()).toMatch(count(5344));
    const totalText = await total.innerText();
    // All the input the model read on the line; how much of it was new and how much the cache held or took, on hover.
    expect(totalText).toMatch(/5[^\d]?344 in/);
    expect(await total.getByTitle(/^3[^\d]?234 new, 1[^\d]?789 cache read, 321 cache write$/).count()).toBe(1);
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
    expect(first).toMatch(/\d+ tools sent \(about [\d,]+ tokens of definitions\)/);
    expect(first).toContain('$0.0040'); // 1,234 in, 56 out, 321 written, 789 read at Sonnet 5's prices
    const toolCall = (await trace.getByRole('listitem').filter({ hasText: 'Tool call' }).textContent()) ?? '';
    expect(toolCall).toMatch(/Everything · echo/);
    expect(toolCall).toMatch(/\d+ ms · ok · allowed once \(person\)/);
    await shot('chat-3-trace-desktop');
  });

  it("loads tool search's word vectors whole in a new tab, under the page's policy, and search takes them", async () => {
    const tab = await page.context().newPage();
    const lines: string[] = [];
    tab.on('console', (message) => lines.push(`${message.type()}: ${message.text()}`));
    tab.on('pageerror', (error) => lines.push(`pageerror: ${error.message}`));
    try {
      const vectors = tab.waitForResponse((response) => response.url().endsWith('/search/word-vectors.bin'));
      // ?debug=1: the app writes to the console what it would otherwise only log (a failed load, or the load itself).
      await tab.goto(`${new URL(page.url()).origin}/?debug=1`);
      const response = await vectors;
      expect(response.status()).toBe(200);
      expect((await response.body()).byteLength).toBe((await stat('public/search/word-vectors.bin')).size);
      await expect.poll(() => lines.some((line) => line.includes("Tool search's word vectors loaded"))).toBe(true);
      expect(lines.filter((line) => /word vectors of tool search failed|Refused to|pageerror/.test(line))).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  it('raised no uncaught errors, and the policy refused nothing (the virtual rows are placed through the CSSOM)', () => {
    expect(pageErrors).toEqual([]);
    expect(consoleLines.filter((line) => /Refused to/i.test(line))).toEqual([]);
  });
});
