/**
 * Rich answers in the production build (issue #22, item 1): GitHub-flavoured markdown (tables, task lists,
 * strikethrough, autolinks), quotes styled, code coloured by a highlighter that loads only when a code block needs it,
 * images only after a click, raw HTML still inert, and Copy on every message and code block. Desktop and phone. A
 * reloaded thread shows its answers formatted from the start.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import { startModelRig, type ModelRig } from './app-page';
import type { AppServer } from './app-server';
import { firstRunToNewThread } from './app-steps';
import type { LaunchedChromium } from './browser';

const SHOTS = 'test-results/screenshots';
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const ANSWER = [
  'Weather today:',
  '',
  '| City | Temp |',
  '| --- | ---: |',
  '| Oslo | 4 °C |',
  '| Rome | 17 °C |',
  '',
  '- [x] pack a coat',
  '- [ ] book the train',
  '',
  '* bring an umbrella',
  '  * a small one',
  '',
  'The ~~old~~ plan is at www.example.com/plan.',
  '',
  '> Quoted from the forecast.',
  '',
  '```python',
  'def greet(name):',
  '    return f"hi {name}"  # friendly',
  '```',
  '',
  `![a dot](data:image/png;base64,${PIXEL}) and ![remote](https://images.example.com/x.png)`,
  '',
  '<img src=x onerror="window.__pwned=1"> <b>raw</b>',
].join('\n');

let rig: ModelRig | undefined;
let app: AppServer | undefined;
let api: FakeAnthropic | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;
let pageErrors: string[] = [];
const requested: string[] = [];

const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message' });
const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` });
const highlighterLoaded = () => requested.some((url) => /\/assets\/code-highlight-[\w-]+\.js$/.test(url));

describe('rich answers', () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    rig = await startModelRig({ viewport: { width: 1280, height: 800 } });
    ({ api, app, browser, page, pageErrors } = rig);
    page.on('request', (request) => requested.push(request.url()));
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    await firstRunToNewThread(page, 'sk-ant-rich', api.url);
  });

  afterAll(async () => {
    await rig?.close();
  });

  it('a plain answer loads no highlighter; one with a fenced code block colours it', async () => {
    api!.script({ text: 'Just **words**, no code.' });
    await box().fill('Say something plain');
    await box().press('Enter');
    await messages().locator('strong', { hasText: 'words' }).waitFor({ timeout: 20_000 });
    expect(highlighterLoaded()).toBe(false);

    api!.script({ text: ANSWER });
    await box().fill('What is the weather?');
    await box().press('Enter');
    const answer = messages().locator('.message-assistant', { hasText: 'Weather today' });
    await answer.waitFor({ timeout: 20_000 });
    // The code shows at once and gains colour once the grammars arrive.
    await answer.locator('.code-block .hljs-keyword', { hasText: 'def' }).waitFor({ timeout: 20_000 });
    expect(highlighterLoaded()).toBe(true);
    expect(await answer.locator('.code-block .hljs-comment').textContent()).toBe('# friendly');
  });

  it('tables, task lists, strikethrough, autolinks and quotes render as such', async () => {
    const answer = messages().locator('.message-assistant', { hasText: 'Weather today' });
    const table = answer.getByRole('table');
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['City', 'Temp']);
    expect(await table.getByRole('row').nth(2).getByRole('cell').allTextContents()).toEqual(['Rome', '17 °C']);
    expect(await table.getByRole('cell', { name: '17 °C' }).evaluate((cell) => getComputedStyle(cell).textAlign)).toBe(
      'right',
    );
    const boxes = answer.getByRole('checkbox');
    expect(await boxes.count()).toBe(2);
    expect(await boxes.first().isChecked()).toBe(true);
    expect(await boxes.nth(1).isChecked()).toBe(false);
    expect(await boxes.first().isDisabled()).toBe(true);
    // Bullets as a reader expects them, though the answer sits in the messages list: top level filled, nested hollow.
    const bulletStyle = (text: string) =>
      answer
        .locator('li', { hasText: text })
        .last()
        .evaluate((li) => getComputedStyle(li).listStyleType);
    expect(await bulletStyle('bring an umbrella')).toBe('disc');
    expect(await bulletStyle('a small one')).toBe('circle');
    expect(await answer.locator('del').textContent()).toBe('old');
    const link = answer.getByRole('link', { name: 'www.example.com/plan' });
    expect(await link.getAttribute('href')).toBe('http://www.example.com/plan');
    expect(await link.getAttribute('rel')).toContain('noreferrer');
    const quote = answer.locator('blockquote');
    expect(await quote.textContent()).toContain('Quoted from the forecast.');
    expect(await quote.evaluate((q) => parseFloat(getComputedStyle(q).borderLeftWidth))).toBeGreaterThanOrEqual(3);
    // Raw HTML stays out: no element, no script run.
    expect(await answer.locator('img[src="x"], b').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await answer.locator('blockquote').scrollIntoViewIfNeeded();
    await shot('rich-1-answer-desktop');
  });

  it('images load only after a click: a data: image shows in place, an https one opens in a new tab', async () => {
    const answer = messages().locator('.message-assistant', { hasText: 'Weather today' });
    expect(await answer.locator('img').count()).toBe(0);
    expect(requested.some((url) => url.includes('images.example.com'))).toBe(false);
    await answer.getByRole('button', { name: 'Show image: a dot' }).click();
    const dot = answer.getByRole('img', { name: 'a dot' });
    await dot.waitFor();
    expect(await dot.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    const remote = answer.getByRole('link', { name: 'Open image: remote (images.example.com)' });
    expect(await remote.getAttribute('href')).toBe('https://images.example.com/x.png');
    expect(await remote.getAttribute('target')).toBe('_blank');
    expect(requested.some((url) => url.includes('images.example.com'))).toBe(false);
  });

  it('Copy on a code block copies the code; Copy on a message copies its text', async () => {
    const answer = messages().locator('.message-assistant', { hasText: 'Weather today' });
    const copyCode = answer.getByRole('button', { name: 'Copy code' });
    await copyCode.click();
    await expect.poll(() => copyCode.textContent()).toBe('Copied');
    // A screen reader hears it too: the button keeps its name (what it copies), a status beside it says the outcome.
    expect(await copyCode.getAttribute('aria-label')).toBe('Copy code');
    expect(await answer.getByRole('status').filter({ hasText: 'Copied' }).count()).toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      'def greet(name):\n    return f"hi {name}"  # friendly',
    );
    await answer.getByRole('button', { name: 'Copy answer' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ANSWER);
    const mine = messages().locator('.message-user', { hasText: 'What is the weather?' });
    await mine.getByRole('button', { name: 'Copy your message' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('What is the weather?');
    expect(
      await messages()
        .getByRole('button', { name: /^Copy (answer|your message)$/ })
        .count(),
    ).toBe(4);
  });

  it('at phone width a wide table scrolls inside the answer, not the page', async () => {
    api!.script({
      text: ['| ' + Array.from({ length: 12 }, (_, i) => `Column ${i}`).join(' | ') + ' |', '|' + ' --- |'.repeat(12)]
        .concat('| ' + Array.from({ length: 12 }, (_, i) => `value-${i}`).join(' | ') + ' |')
        .join('\n'),
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await box().fill('A wide table please');
    await box().press('Enter');
    const table = messages().getByRole('table').last();
    await table.getByRole('cell', { name: 'value-11' }).waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const scroller = table.locator('xpath=..');
    await expect.poll(() => scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    // Cells keep their words on a line rather than a letter a line.
    expect(await table.getByRole('cell', { name: 'value-11' }).evaluate((td) => td.clientHeight)).toBeLessThan(40);
    await shot('rich-2-table-phone');
    expect(pageErrors).toEqual([]);
  });

  it("after a reload the thread's answers show formatted as they first appear, never as markdown source", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    // Every answer shown as plain text while the renderer loads (.markdown-plain), noted before any paint.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __plainAnswers: string[] }).__plainAnswers = seen;
      new MutationObserver(() => {
        for (const element of document.querySelectorAll('.markdown-plain')) seen.push(element.textContent ?? '');
      }).observe(document, { childList: true, subtree: true });
    });
    await page.reload();
    const answer = messages().locator('.message-assistant', { hasText: 'Weather today' });
    await answer.getByRole('table').waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => (window as unknown as { __plainAnswers: string[] }).__plainAnswers)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
