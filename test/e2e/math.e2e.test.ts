/**
 * Math in answers in the production build (issue #22): `$…$` and `$$…$$` typeset by KaTeX, whose code, CSS and fonts
 * load only with the first answer that has a formula; under the app's strict CSP (no inline style, fonts only from
 * the app), with nothing refused, and the formula readable by a screen reader (MathML) and by axe.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import { startModelRig, type ModelRig } from './app-page';
import type { AppServer } from './app-server';
import { firstRunToNewThread } from './app-steps';
import { axeViolations } from './axe-audit';

const SHOTS = 'test-results/screenshots';
const MATH_ANSWER = [
  'By Pythagoras, $a^2 + b^2 = c^2$, and the area under $x$ is',
  '',
  '$$',
  '\\int_0^1 x\\,dx = \\frac{1}{2}',
  '$$',
  '',
  'A link it asks for stays text: $\\href{javascript:alert(1)}{click}$.',
].join('\n');

let rig: ModelRig | undefined;
let app: AppServer | undefined;
let api: FakeAnthropic | undefined;
let page: Page;
let pageErrors: string[] = [];
let consoleLines: string[] = [];
const requested: string[] = [];
const fontResponses: { url: string; status: number }[] = [];

const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message' });
/** KaTeX's files the page fetched since it loaded (its resource timings, which go back to the navigation). */
const mathRequested = async () =>
  (await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name)))
    .concat(requested)
    .filter((url) => /\/assets\/(math-plugins|KaTeX_)[^/]*$/.test(url));

describe('math in answers', () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    rig = await startModelRig({ viewport: { width: 1280, height: 800 } });
    ({ api, app, page, pageErrors, consoleLines } = rig);
    page.on('request', (request) => requested.push(request.url()));
    page.on('response', (response) => {
      if (/KaTeX_[\w-]+\.woff2$/.test(response.url()))
        fontResponses.push({ url: response.url(), status: response.status() });
    });
    await firstRunToNewThread(page, 'sk-ant-math', api.url);
  });

  afterAll(async () => {
    await rig?.close();
  });

  it('an answer without a formula loads no KaTeX, even one that speaks of prices in dollars', async () => {
    api!.script({ text: 'It costs $5 and $10 with **tax**.' });
    await box().fill('How much?');
    await box().press('Enter');
    await messages().locator('strong', { hasText: 'tax' }).waitFor({ timeout: 20_000 });
    expect(await messages().getByText('It costs $5 and $10 with').count()).toBe(1);
    expect(await mathRequested()).toEqual([]);
  });

  it('typesets inline and display formulas, styled and in KaTeX fonts, with no CSP refusal', async () => {
    api!.script({ text: MATH_ANSWER });
    await box().fill('Some maths, please');
    await box().press('Enter');
    const answer = messages().locator('.message-assistant', { hasText: 'By Pythagoras' });
    await answer.locator('.katex-display').waitFor({ timeout: 20_000 });
    expect(await answer.locator('.katex').count()).toBe(4); // two inline, one display, one refused \href
    // MathML for screen readers, with the source as its annotation.
    expect(await answer.locator('math annotation').first().textContent()).toBe('a^2 + b^2 = c^2');
    // The $$ block is centred by KaTeX's stylesheet, and KaTeX's per-element sizes (React sets them through the CSSOM,
    // which the CSP allows) are in force: a fraction's parts sit at their heights.
    expect(await answer.locator('.katex-display > .katex').evaluate((el) => getComputedStyle(el).textAlign)).toBe(
      'center',
    );
    const strutHeights = await answer
      .locator('.katex-display .strut')
      .evaluateAll((struts) => struts.map((strut) => (strut as HTMLElement).style.height));
    expect(strutHeights.length).toBeGreaterThan(0);
    expect(strutHeights.every((height) => /^[\d.]+em$/.test(height))).toBe(true);
    // Its fonts come from the app's own files (font-src 'self' takes no data: URL) and are in use.
    await expect
      .poll(() =>
        page.evaluate(() =>
          [...document.fonts].some(
            (font) => font.family.replace(/"/g, '') === 'KaTeX_Main' && font.status === 'loaded',
          ),
        ),
      )
      .toBe(true);
    expect(fontResponses.length).toBeGreaterThan(0);
    expect((await mathRequested()).some((url) => /math-plugins-[\w-]+\.js$/.test(url))).toBe(true);
    expect(fontResponses.every((font) => font.status === 200 && font.url.startsWith(app!.url))).toBe(true);
    // \href was refused: no link, and nothing ran.
    expect(await answer.locator('.katex a').count()).toBe(0);
    expect(consoleLines.filter((line) => /Content Security Policy|Refused to/i.test(line))).toEqual([]);
    expect(pageErrors).toEqual([]);
    await answer.locator('.katex-display').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/math-desktop.png` });
  });

  it('an answer with formulas has no accessibility violation, in the light and the dark theme', async () => {
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/math-desktop-dark.png` });
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
