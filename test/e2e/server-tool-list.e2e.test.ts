/**
 * A server with hundreds of tools in the servers manager: its list shows 100 rows at a time with "Show more", and a
 * filter box finds a tool by name or description; a switch flipped in a filtered list is stored like any other.
 * The production build, an SDK test server with 253 tools on 127.0.0.1, real Chromium.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMcpServer, type TestMcpServer } from '../fixtures/test-mcp-server';
import { startAppServer, type AppServer } from './app-server';
import { addServer, closeServersPanel, newThreadWithServer, openServersPanel } from './app-steps';
import { openAppPage } from './app-page';
import type { LaunchedChromium } from './browser';

const SHOTS = 'test-results/screenshots';
let app: AppServer | undefined;
let browser: LaunchedChromium | undefined;
let many: TestMcpServer | undefined;
let page: Page;
let pageErrors: string[] = [];

const item = () => page.getByRole('listitem', { name: 'Many', exact: true });
const tools = () => item().getByRole('list', { name: 'Tools of Many', exact: true });
const switches = () => tools().getByRole('switch');
const filter = () => item().getByRole('searchbox', { name: 'Filter the tools of Many' });

/** The accessible name of the focused element. */
const focusedName = () =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName);

/** The name of the list the focused element is in. */
const focusedList = () => page.evaluate(() => document.activeElement?.closest('ul')?.getAttribute('aria-label'));

async function openTools(): Promise<void> {
  await item().locator('summary', { hasText: 'Tools (' }).click();
  await tools().waitFor();
}

describe("a server's long tool list", () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    [many, app] = await Promise.all([startTestMcpServer({ toolCount: 250 }), startAppServer()]);
    ({ browser, page, pageErrors } = await openAppPage(app.url, { viewport: { width: 1280, height: 900 } }));
    await addServer(page, 'Many', many.url, { keepOpen: true });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await many?.stop();
  });

  it('shows the first 100 tools, and 100 more at a time', async () => {
    await expect.poll(() => item().textContent(), { timeout: 15_000 }).toContain('253 tools');
    await openTools();
    await expect.poll(() => switches().count()).toBe(100);
    await item().getByText('Showing 100 of 253 tools.').waitFor();
    await item().getByRole('button', { name: 'Show 100 more' }).click();
    await expect.poll(() => switches().count()).toBe(200);
    // The focus goes to the first row it brought (the rows came above the button), not to the page.
    await expect.poll(focusedList).toBe('Tools of Many');
    await item().getByRole('button', { name: 'Show 53 more' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => switches().count()).toBe(253);
    await expect.poll(focusedList).toBe('Tools of Many'); // the button is gone
    expect(
      await item()
        .getByText(/^Showing \d+ of/)
        .count(),
    ).toBe(0);
  });

  it('finds tools by name or by description, and says when none matches', async () => {
    await filter().fill('tool-24');
    await expect.poll(() => switches().count()).toBe(11); // tool-24 and tool-240 … tool-249
    await item().getByRole('status').getByText('11 of 253 tools match.').waitFor();
    await filter().fill('generated TOOL 7');
    await expect.poll(() => switches().count()).toBe(11); // "Generated tool 7", "… 70" … "… 79"
    expect(await tools().getByRole('switch', { name: 'tool-75', exact: true }).count()).toBe(1);
    await filter().fill('no-such-tool');
    await item().getByText('No tool of Many has “no-such-tool” in its name or description.').waitFor();
    expect(await switches().count()).toBe(0);
  });

  it('a tool switched off in a filtered list stays off after a reload', async () => {
    await filter().fill('tool-245');
    const tool = tools().getByRole('switch', { name: 'tool-245', exact: true });
    await tool.click(); // the switch follows the stored state
    await expect.poll(() => tool.isChecked()).toBe(false);
    await item().screenshot({ path: `${SHOTS}/servers-tool-filter-desktop.png` });
    await page.reload();
    await openServersPanel(page);
    await openTools();
    await filter().fill('tool-245');
    await expect.poll(() => tool.isChecked(), { timeout: 15_000 }).toBe(false);
    expect(await item().locator('summary', { hasText: 'Tools (' }).textContent()).toMatch(/Tools \(252 of 253 on\)/);
  });

  it('a description being written stays in the list while the filter hides its tool', async () => {
    await filter().fill('tool-3');
    await tools().getByRole('button', { name: 'Edit description of tool-3', exact: true }).click();
    await expect.poll(focusedName).toBe('Description for tool-3'); // the focus goes into the text
    await tools()
      .getByRole('textbox', { name: 'Description for tool-3', exact: true })
      .fill('My words for tool three.');
    await filter().fill('tool-24');
    expect(await tools().getByRole('textbox', { name: 'Description for tool-3', exact: true }).inputValue()).toBe(
      'My words for tool three.',
    );
    await tools().getByRole('button', { name: 'Save description' }).click();
    // Saved, the editor closes and the filter decides again: tool-3 shows once it matches.
    await expect.poll(() => tools().getByRole('button', { name: 'Save description' }).count()).toBe(0);
    await filter().fill('tool-3');
    await tools().getByText('My words for tool three.').waitFor();
  });

  it('the keyboard: Edit description takes the focus into the text, and Cancel brings it back', async () => {
    await filter().fill('tool-42');
    await tools().getByRole('button', { name: 'Edit description of tool-42', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(focusedName).toBe('Description for tool-42');
    await page.keyboard.type(' (draft)');
    await tools().getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(focusedName).toBe('Edit description of tool-42');
    expect(await tools().getByText('Generated tool 42', { exact: true }).count()).toBe(1);
  });

  it("the thread menu's pinned tools: a page at a time, a filter, and a pinned tool shown once the filter is cleared", async () => {
    await closeServersPanel(page);
    await newThreadWithServer(page, 'Many');
    await page.getByRole('button', { name: 'Thread menu' }).click();
    const pins = page.locator('details.pinned-tools');
    await pins.getByText('Deferral and pinned tools (0)').click();
    const list = pins.getByRole('list', { name: 'Tools of Many to pin', exact: true });
    await expect.poll(() => list.getByRole('checkbox').count()).toBe(100);
    await pins.getByText('Showing 100 of 252 tools.').waitFor(); // tool-245 is off, so not offered
    await pins.getByRole('searchbox', { name: 'Filter the tools of Many to pin' }).fill('tool-199');
    await expect.poll(() => list.getByRole('checkbox').count()).toBe(1);
    await list.getByRole('checkbox', { name: 'Pin tool-199 (Many)', exact: true }).check();
    await pins.getByText('Deferral and pinned tools (1)').waitFor();
    await pins.getByRole('searchbox', { name: 'Filter the tools of Many to pin' }).fill('');
    // Without a filter the pinned tool leads the list, beside the first 100 of the others.
    const pin199 = list.getByRole('checkbox', { name: 'Pin tool-199 (Many)', exact: true });
    await expect.poll(() => list.getByRole('checkbox').first().getAttribute('aria-label')).toBe('Pin tool-199 (Many)');
    expect(await pin199.isChecked()).toBe(true);
    await pins.getByText('Showing 101 of 252 tools.').waitFor();
    await page.screenshot({ path: `${SHOTS}/thread-pinned-tools-filter-desktop.png` });
    // Pinned or unpinned there, a tool stays in its place (until the filter changes): nothing moves under the pointer.
    const third = list.getByRole('checkbox').nth(2);
    const thirdName = await third.getAttribute('aria-label');
    await third.check();
    await pins.getByText('Deferral and pinned tools (2)').waitFor();
    expect(await list.getByRole('checkbox').nth(2).getAttribute('aria-label')).toBe(thirdName);
    await list.getByRole('checkbox').nth(2).uncheck();
    await pin199.uncheck();
    await pins.getByText('Deferral and pinned tools (0)').waitFor();
    expect(await list.getByRole('checkbox').first().getAttribute('aria-label')).toBe('Pin tool-199 (Many)');
    await pin199.check();
    await pins.getByText('Deferral and pinned tools (1)').waitFor();

    // A tool pinned in another tab meanwhile joins the leading ones here, the section still open.
    const other = await page.context().newPage();
    try {
      await other.goto(page.url());
      await other.getByRole('button', { name: 'Thread menu' }).click();
      const otherPins = other.locator('details.pinned-tools');
      await otherPins.getByText('Deferral and pinned tools (1)').click();
      await otherPins.getByRole('searchbox', { name: 'Filter the tools of Many to pin' }).fill('tool-177');
      await otherPins.getByRole('checkbox', { name: 'Pin tool-177 (Many)', exact: true }).check();
      await otherPins.getByText('Deferral and pinned tools (2)').waitFor();
      // The other tab stays open until this one has the pin: closed at once, its write could still be on its way.
      await page.bringToFront();
      await pins.getByText('Deferral and pinned tools (2)').waitFor({ timeout: 15_000 });
    } finally {
      await other.close();
    }
    const labels = () =>
      list.getByRole('checkbox').evaluateAll((boxes) => boxes.map((b) => b.getAttribute('aria-label')));
    // In the list's order among themselves.
    await expect
      .poll(async () => (await labels()).slice(0, 2).sort())
      .toEqual(['Pin tool-177 (Many)', 'Pin tool-199 (Many)']);
  });

  it('a pinned tool\'s long description ends in "…" inside the menu, on desktop and phone', async () => {
    many!.addTool('long-described', `Summarizes ${'a great many things at length, '.repeat(40)}and stops.`);
    const pins = page.locator('details.pinned-tools');
    const list = pins.getByRole('list', { name: 'Tools of Many to pin', exact: true });
    await pins.getByRole('searchbox', { name: 'Filter the tools of Many to pin' }).fill('long-described');
    const row = list.getByRole('listitem').filter({ hasText: 'long-described' });
    await row.waitFor({ timeout: 15_000 });
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      const fit = await row.evaluate((li) => {
        const description = li.querySelector('.pin-description')!;
        // The thread menu's panel, which scrolls: nothing in it may be wider than it.
        const panel = li.closest('.chat-header-more')!;
        return {
          clipped: description.scrollWidth > description.clientWidth,
          inside: description.getBoundingClientRect().right <= panel.getBoundingClientRect().right + 1,
          panelScrolls: panel.scrollWidth > panel.clientWidth + 1,
          nameWidth: li.querySelector('code')!.getBoundingClientRect().width,
        };
      });
      expect(fit, `at ${viewport.width} px`).toMatchObject({ clipped: true, inside: true, panelScrolls: false });
      // The name keeps its own line rather than being squeezed by the description.
      expect(fit.nameWidth).toBeGreaterThan(80);
      await row.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/thread-pinned-tools-long-description-${viewport.width}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('"Never" for a thread of many tools says what it costs beside the choice; Auto takes the note away', async () => {
    const pins = page.locator('details.pinned-tools');
    const deferral = pins.getByRole('combobox', { name: 'Deferral in this thread' });
    await deferral.selectOption('never');
    const note = pins.getByRole('status').filter({ hasText: /^Never sends all 25\d tools of this thread's servers/ });
    await note.waitFor();
    expect(await deferral.getAttribute('aria-describedby')).toBe(await note.getAttribute('id'));
    await deferral.selectOption('auto');
    await note.waitFor({ state: 'detached' });
    await deferral.selectOption('');
  });

  it('raised no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
