/**
 * The Settings screen in the production build: tool-search settings that survive a reload, a configuration import
 * (one good server, one bad) and an export with no secrets in it, and profiles (create, switch, delete). The theme:
 * settings-theme.e2e.test.ts.
 */
import { mkdir, readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { startTestMcpServer, type TestMcpServer } from '../fixtures/test-mcp-server';
import { startAppServer, type AppServer } from './app-server';
import { openAppPage } from './app-page';
import type { LaunchedChromium } from './browser';
import { dumpIndexedDb } from './idb-dump';
import { openSettingsAdvanced, pageTheme } from './settings-steps';

const SHOTS = 'test-results/screenshots';
const API_KEY = `sk-ant-settings-e2e-${Date.now()}`;
const BEARER = `bearer-settings-e2e-${Date.now()}`;
let app: AppServer | undefined;
let browser: LaunchedChromium | undefined;
let api: FakeAnthropic | undefined;
let mcp: TestMcpServer | undefined;
let page: Page;

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
const openSettings = () => openSettingsAdvanced(page);
const themeOf = () => pageTheme(page);

/** The options of a select whose text is wider than its closed box shows (measured in the select's own font). */
const optionsCut = (select: HTMLSelectElement) => {
  const style = getComputedStyle(select);
  const context = document.createElement('canvas').getContext('2d')!;
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20; // the arrow
  return [...select.options].filter((o) => context.measureText(o.text).width > room).map((o) => o.text);
};

describe('the Settings screen', () => {
  let pageErrors: string[] = [];

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    [api, mcp, app] = await Promise.all([
      startFakeAnthropic(),
      startTestMcpServer({ requireBearer: BEARER }),
      startAppServer(),
    ]);
    ({ browser, page, pageErrors } = await openAppPage(app.url, { viewport: { width: 1280, height: 900 } }));
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await api?.stop();
    await mcp?.stop();
  });

  it('saves tool-search settings (an out-of-range number is refused next to its field) and keeps them after a reload', async () => {
    await page.getByText('Add your Anthropic API key to start chatting').waitFor();
    await page.getByLabel('API key').fill(API_KEY);
    await page.getByRole('textbox', { name: 'Base URL' }).fill(api!.url);
    await page.getByText('Advanced settings').click(); // folded on first run
    await page.getByRole('combobox', { name: 'Deferral' }).selectOption('always');
    await page.getByRole('combobox', { name: 'Search strategy' }).selectOption('regex');
    await page.getByRole('spinbutton', { name: 'Preload count' }).fill('25');
    await page.getByRole('spinbutton', { name: 'Loaded-tool cap' }).fill('0');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Preload count must be a whole number from 0 to 20').waitFor();
    await page.getByText('Loaded-tool cap must be a whole number from 1 to 200').waitFor();
    expect(await page.getByRole('spinbutton', { name: 'Preload count' }).getAttribute('aria-invalid')).toBe('true');
    // What was typed can be put back to the app's defaults, though nothing is stored yet.
    expect(await page.getByRole('button', { name: 'Reset tool search to app defaults' }).isEnabled()).toBe(true);
    // A number left blank follows the app's default (its hint says which): only the cap is still wrong.
    await page.getByRole('spinbutton', { name: 'Preload count' }).fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Loaded-tool cap must be a whole number from 1 to 200').waitFor();
    expect(await page.getByText('Preload count must be a whole number from 0 to 20').count()).toBe(0);

    // A look at Servers before the first Save loses nothing typed in Settings, the key included.
    await page.getByRole('button', { name: 'Servers', exact: true }).click();
    await page.getByRole('heading', { name: 'Servers' }).waitFor();
    await page.getByRole('button', { name: 'Servers', exact: true }).click();
    await page.getByText('Add your Anthropic API key to start chatting').waitFor();
    expect(await page.getByLabel('API key').inputValue()).toBe(API_KEY);
    expect(await page.getByRole('textbox', { name: 'Base URL' }).inputValue()).toBe(api!.url);
    await page.getByText('Advanced settings').click();
    expect(await page.getByRole('combobox', { name: 'Deferral' }).inputValue()).toBe('always');
    expect(await page.getByRole('spinbutton', { name: 'Loaded-tool cap' }).inputValue()).toBe('0');
    await page.getByRole('spinbutton', { name: 'Preload count' }).fill('5');
    await page.getByRole('spinbutton', { name: 'Loaded-tool cap' }).fill('40');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    // Saved: the key is in the vault, and the field (filled from the kept draft before) is empty again.
    await page.getByLabel('API key').and(page.locator('[placeholder^="••••"]')).waitFor();
    expect(await page.getByLabel('API key').inputValue()).toBe('');

    await page.reload();
    await openSettings();
    expect(await page.getByRole('combobox', { name: 'Deferral' }).inputValue()).toBe('always');
    expect(await page.getByRole('combobox', { name: 'Search strategy' }).inputValue()).toBe('regex');
    expect(await page.getByRole('combobox', { name: 'Tool search mode' }).inputValue()).toBe('client');
    // The three modes, each named with its trade-off.
    const modes = page.getByRole('list', { name: 'Tool search modes' }).getByRole('listitem');
    expect(await modes.allInnerTexts()).toEqual([
      expect.stringMatching(/^Client: .*any endpoint/),
      expect.stringMatching(/^Anthropic API: .*cache holds/),
      expect.stringMatching(/^Server-side search: .*tool search/),
    ]);
    expect(await page.getByRole('spinbutton', { name: 'Preload count' }).inputValue()).toBe('5');
    expect(await page.getByRole('spinbutton', { name: 'Loaded-tool cap' }).inputValue()).toBe('40');
    // Each choice of Code reads whole in its box, not cut off.
    expect(await page.getByRole('combobox', { name: 'Code', exact: true }).evaluate(optionsCut)).toEqual([]);
    await shot('settings-desktop');
  });

  it('a tool-search change saved in another tab shows in this form, so a Save here does not write the old value back', async () => {
    await openSettings();
    expect(await page.getByRole('spinbutton', { name: 'Preload count' }).inputValue()).toBe('5');
    const other = await browser!.context.newPage();
    try {
      await other.goto(app!.url);
      await other.getByRole('button', { name: 'Settings' }).click();
      await other.getByRole('spinbutton', { name: 'Preload count' }).fill('7');
      await other.getByRole('button', { name: 'Save' }).click();
      await other.getByText('Saved.').waitFor();
    } finally {
      await other.close();
    }
    await expect.poll(() => page.getByRole('spinbutton', { name: 'Preload count' }).inputValue()).toBe('7');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    await page.reload();
    await openSettings();
    expect(await page.getByRole('spinbutton', { name: 'Preload count' }).inputValue()).toBe('7');
  });

  it('imports a file with one good and one bad server, reports both, and the good one connects once given its token', async () => {
    const file = {
      format: 'mcp-agent-config',
      version: 1,
      exportedAt: new Date().toISOString(),
      preferences: { theme: 'light', toolSearch: { preloadCount: 0 } },
      servers: [
        { id: 'gated', name: 'Gated', url: mcp!.url, auth: { kind: 'bearer' } },
        { id: 'broken', name: 'Broken', url: 'ftp://files.example/mcp' },
      ],
    };
    // Chosen from the keyboard: focus is on the file picker, which is disabled while it reads.
    await page.getByLabel('Import configuration').focus();
    await page
      .getByLabel('Import configuration')
      .setInputFiles({ name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
    const report = page.getByRole('region', { name: 'Import report' });
    await report.waitFor();
    // The report takes the focus, so a screen reader reads it and the keyboard goes on from there.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Import report');
    expect(await report.getByRole('list', { name: 'Imported', exact: true }).textContent()).toContain('Server "Gated"');
    expect(await report.getByRole('list', { name: 'Not imported' }).textContent()).toBe(
      'Server "Broken": url: Server URL must use https:// (got ftp:)',
    );
    await report.getByText('Gated needs a bearer token.').waitFor();
    // The form shows the imported value at once, so a later Save cannot write the old one back.
    expect(await page.getByRole('spinbutton', { name: 'Preload count' }).inputValue()).toBe('0');
    await page.getByLabel('Bearer token for Gated').fill(BEARER);
    await page.getByRole('button', { name: 'Store token for Gated' }).click();
    await report.getByText('Stored; the server is connected.').waitFor({ timeout: 15_000 });
    // Nothing is left to type: the sentence says the token is there, and the empty field is gone.
    await report.getByText('Gated has its bearer token.').waitFor();
    expect(await page.getByLabel('Bearer token for Gated').count()).toBe(0);
    // The button pressed went: the focus is on the sentence that took its place, not on the page.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Stored; the server is connected.');
    await shot('settings-import-report');

    await page
      .getByLabel('Import configuration')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('these are not settings') });
    await page.getByText('This file is not valid JSON, so nothing was imported.').waitFor();
    await page
      .getByLabel('Import configuration')
      .setInputFiles({ name: 'huge.json', mimeType: 'application/json', buffer: Buffer.alloc(1_500_000, 32) });
    await page
      .getByText('The file is too large (1.5 MB); a configuration file is at most 1 MB. Nothing was imported.')
      .waitFor();

    await page.getByRole('button', { name: 'Servers' }).click();
    await expect
      .poll(() => page.getByRole('listitem', { name: 'Gated' }).textContent(), { timeout: 15_000 })
      .toContain('Connected');
    await page.getByRole('button', { name: 'Servers' }).click();
  });

  it('the saved tool-search settings shape the next model call: deferred always, nothing preloaded, regex search', async () => {
    await page.getByRole('button', { name: 'New thread', exact: true }).click();
    await page.getByRole('switch', { name: 'Gated', exact: true }).check();
    api!.script({ text: 'Nothing to do.' });
    await page.getByRole('textbox', { name: 'Message' }).fill('add two numbers');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await page.getByRole('list', { name: 'Messages' }).getByText('Nothing to do.').waitFor({ timeout: 15_000 });
    const request = api!.requests.at(-1)!;
    expect(request.toolNames).toEqual(['tool_search', 'execute_code']); // code is on by default (issue #18)
    expect(JSON.stringify(request.body.tools)).toContain('A regular expression');
  });

  it('exports the configuration as a file without the API key or the bearer token', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    await openSettings();
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export configuration' }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toMatch(/^mcp-agent-config-default-\d{4}-\d{2}-\d{2}\.json$/);
    const text = await readFile(await download.path(), 'utf8');
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(BEARER);
    const exported = JSON.parse(text) as {
      format: string;
      servers: { name: string; auth: unknown }[];
      preferences: Record<string, unknown>;
    };
    expect(exported.format).toBe('mcp-agent-config');
    expect(exported.servers).toEqual([expect.objectContaining({ name: 'Gated', auth: { kind: 'bearer' } })]);
    expect(exported.preferences).toMatchObject({
      theme: 'light',
      toolSearch: { deferral: 'always', strategy: 'regex', preloadCount: 0, loadedToolCap: 40 },
    });
  });

  it('creates a profile (shown at once in another tab), switches to it, and deletes the first one with everything it had', async () => {
    await page.getByRole('button', { name: 'Create profile' }).click();
    await page.getByText('Profile name is required').waitFor();
    await page.getByRole('textbox', { name: 'New profile name' }).fill('Default');
    await page.getByRole('button', { name: 'Create profile' }).click();
    await page.getByText('A profile named "Default" already exists').waitFor();
    // Created in another tab, it shows in this tab's open list without a reload.
    const other = await browser!.context.newPage();
    try {
      await other.goto(app!.url);
      await other.getByRole('button', { name: 'Settings' }).click();
      await other.getByRole('textbox', { name: 'New profile name' }).fill('Sam');
      await other.getByRole('button', { name: 'Create profile' }).click();
      await other.getByRole('listitem', { name: 'Sam' }).waitFor();
    } finally {
      await other.close();
    }
    await page.getByRole('listitem', { name: 'Sam' }).waitFor();

    await page.getByRole('button', { name: 'Switch to Sam' }).click();
    await page.getByText('Profile: Sam').waitFor({ timeout: 15_000 });
    // Sam has no key, no servers and the system theme.
    await page.getByText('Add your Anthropic API key to start chatting').waitFor();
    expect((await themeOf()).attribute).toBeNull();
    expect(await page.getByRole('listitem', { name: 'Default' }).count()).toBe(1);
    // The profile in use says so in words, not as something that looks pressable.
    const current = page.getByRole('listitem', { name: 'Sam' }).getByText('In use', { exact: true });
    await current.waitFor();
    expect(await current.evaluate((el) => getComputedStyle(el).borderTopStyle)).toBe('none');
    expect(await page.getByRole('listitem', { name: 'Default' }).getByText('In use').count()).toBe(0);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete profile Default' }).click();
    await page.getByText('Profile "Default" deleted.').waitFor();
    expect(await page.getByRole('list', { name: 'Profiles' }).getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('Sam'),
    ]);
    expect(await page.getByRole('button', { name: 'Delete profile Sam' }).isDisabled()).toBe(true); // never the last one
    const dump = await dumpIndexedDb(page);
    expect(dump).not.toContain('Gated'); // its server, catalog and credentials went with it
    expect(dump).not.toContain(API_KEY);
    await page.reload();
    await page.getByText('Profile: Sam').waitFor();
  });

  it('fits a 390px-wide phone screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openSettings();
    const overflow = await page.evaluate(() => ({
      wide: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      tall: document.documentElement.scrollHeight - document.documentElement.clientHeight,
    }));
    expect(overflow).toEqual({ wide: 0, tall: 0 }); // the page itself never scrolls; the main column does
    await page.screenshot({ path: `${SHOTS}/settings-phone.png` });
    await page.getByRole('spinbutton', { name: 'Loaded-tool cap' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/settings-phone-tool-search.png` });
    await page.getByRole('button', { name: 'Export configuration' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/settings-phone-profiles.png` });
  });

  it('raised no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
