/**
 * Accessibility audit in the production build (issue #22): axe-core finds nothing to fix on every screen (first run,
 * an empty thread, a thread with an answer, a tool card and an approval prompt, a server's request for input, the
 * servers manager with its add form's errors and Find servers, Settings, a thread's settings), at desktop and phone width, in the light and the dark
 * theme; and a screen reader hears of an approval request and of a finished answer.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import { remoteEntry, startRegistryFixture, type RegistryFixture } from '../fixtures/registry-server';
import { startEverythingRig, saveKeyAndBaseUrl, type EverythingRig } from './app-page';
import { axeViolations } from './axe-audit';

const SHOTS = 'test-results/screenshots';
const ANSWER = [
  'The echo came back. Here is a summary:',
  '',
  '| Tool | Result |',
  '| --- | --- |',
  '| echo | ok |',
  '',
  '> Quoted note with a [link](https://example.com/docs).',
  '',
  '```ts',
  'const answer: number = 42; // the answer',
  'export function greet(name: string) { return `hi ${name}`; }',
  '```',
].join('\n');

let rig: EverythingRig | undefined;
let registry: RegistryFixture | undefined;
let api: FakeAnthropic;
let page: Page;
let pageErrors: string[] = [];

const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message' });
const announcements = () => page.getByRole('status', { name: 'Chat announcements' });
const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` });

/** The screen has no axe violation; a failure lists each one with its element and how to fix it. */
async function expectAccessible(screen: string): Promise<void> {
  await shot(`a11y-${screen}`);
  expect(await axeViolations(page), `axe violations on "${screen}"`).toEqual([]);
}

async function toggleServers(open: boolean): Promise<void> {
  const button = page.getByRole('button', { name: 'Servers', exact: true });
  if (((await button.getAttribute('aria-pressed')) === 'true') !== open) await button.click();
}

async function openSettingsWithAdvanced(): Promise<void> {
  if ((await page.getByRole('region', { name: 'Settings' }).count()) === 0)
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const advanced = page.locator('details.advanced-settings');
  await advanced.waitFor();
  if (!(await advanced.evaluate((details) => (details as HTMLDetailsElement).open)))
    await advanced.locator('summary').click();
  await page.getByRole('spinbutton', { name: 'Preload count' }).waitFor();
}

async function closeSettings(): Promise<void> {
  if ((await page.getByRole('region', { name: 'Settings' }).count()) > 0)
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('region', { name: 'Settings' }).waitFor({ state: 'detached' });
}

describe('accessibility (axe-core)', () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    registry = await startRegistryFixture({
      servers: [
        remoteEntry('io.github.someone/calculator', 'https://calc.example.com/mcp', {
          title: 'Calculator',
          description: 'Adds numbers.',
        }),
        remoteEntry('io.example/weather', 'https://weather.example.com/mcp', { title: 'Weather' }),
      ],
    });
    rig = await startEverythingRig({
      viewport: { width: 1280, height: 800 },
      appConfig: { discovery: { enabled: true, endpoint: registry.url } },
    });
    ({ api, page, pageErrors } = rig);
  });

  afterAll(async () => {
    await rig?.close();
    await registry?.stop();
  });

  it('first run: the key prompt, folded and with the advanced settings open', async () => {
    await page.getByText('Add your Anthropic API key to start chatting').waitFor({ timeout: 30_000 });
    await expectAccessible('first-run');
    await page.getByText('Advanced settings').click();
    await page.getByRole('spinbutton', { name: 'Preload count' }).waitFor();
    await expectAccessible('first-run-advanced');
    await saveKeyAndBaseUrl(page, 'sk-ant-a11y', api.url);
  });

  it('an empty thread', async () => {
    await closeSettings();
    await page.getByRole('button', { name: 'New thread', exact: true }).first().click();
    await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
    await expectAccessible('empty-thread');
    // The page's first Tab stop skips the header and the thread list to the message box.
    const skip = page.getByRole('button', { name: 'Skip to the message box' });
    const first = await page.evaluate(
      () => document.querySelector('button, a[href], input, textarea, select, [tabindex]')?.textContent,
    );
    expect(first).toBe('Skip to the message box');
    await skip.focus();
    const shown = await skip.boundingBox();
    expect(shown!.x).toBeGreaterThanOrEqual(0); // On screen while it has the focus.
    await page.keyboard.press('Enter');
    const box = page.getByRole('textbox', { name: 'Message' });
    await expect.poll(() => box.evaluate((e) => e === document.activeElement)).toBe(true);
  });

  it('the servers manager: its list, the add form with errors, and Find servers', async () => {
    await toggleServers(true);
    const form = page.getByRole('form', { name: 'Add a server' });
    await page.getByRole('textbox', { name: 'Server URL' }).fill('ftp://nowhere');
    await form.getByRole('button', { name: 'Add server' }).click();
    await form.getByText('Server name is required').waitFor();
    await expectAccessible('servers-add-errors');
    await page.getByRole('textbox', { name: 'Server name' }).fill('Tools');
    await page.getByRole('textbox', { name: 'Server URL' }).fill(rig!.everything.url);
    await form.getByRole('button', { name: 'Add server' }).click();
    await page
      .getByRole('listitem', { name: 'Tools' })
      .getByText('Connected', { exact: true })
      .waitFor({ timeout: 30_000 });
    await expectAccessible('servers-list');
    await page.getByRole('button', { name: 'Find servers' }).click();
    await page.getByText('2 servers found.').waitFor({ timeout: 30_000 });
    await expectAccessible('servers-find');
    await toggleServers(false);
  });

  it('a thread with an approval prompt, a tool card and an answer; the prompt and the answer are announced', async () => {
    await page.getByRole('button', { name: 'New thread', exact: true }).first().click();
    await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
    await page.getByRole('switch', { name: 'Tools', exact: true }).check();
    api.script(
      { toolUses: [{ id: 'toolu_a11y', name: 'mcp__tools__echo', input: { message: 'hello' } }] },
      { text: ANSWER },
    );
    await box().fill('Echo hello, then summarise');
    await box().press('Enter');
    const approval = page.getByRole('region', { name: 'Approve echo' });
    await approval.waitFor({ timeout: 30_000 });
    await expect.poll(() => announcements().textContent()).toBe('Approval needed: Tools wants to run echo.');
    await expectAccessible('thread-approval');
    // Always: Settings › Always allowed then has an entry (with its Revoke button) for the audit of Settings.
    await approval.getByRole('button', { name: 'Always allow' }).click();
    const answer = messages().locator('.message-assistant', { hasText: 'The echo came back' });
    await answer.locator('.code-block .hljs-keyword').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => announcements().textContent()).toBe('Answer complete.');
    // Each message says who wrote it, and where it stands in the whole thread (only rows near the view are in the page).
    const rows = messages()
      .getByRole('listitem')
      .filter({ has: page.locator('.message') });
    expect(await messages().getByRole('heading', { name: 'You said:' }).count()).toBe(1);
    expect(await messages().getByRole('heading', { name: 'Claude said:' }).count()).toBeGreaterThan(0);
    const total = await rows.count();
    expect(await rows.first().getAttribute('aria-posinset')).toBe('1');
    expect(await rows.last().getAttribute('aria-setsize')).toBe(String(total));
    await messages().locator('details.tool-card', { hasText: 'echo' }).locator('summary').click();
    await expectAccessible('thread-answer-tool-card');
  });

  it("a server's request for input (elicitation), with its errors", async () => {
    api.script(
      { toolUses: [{ id: 'toolu_a11y_form', name: 'mcp__tools__trigger-elicitation-request', input: {} }] },
      { text: 'No details, fine.' },
    );
    await box().fill('Ask me for details');
    await box().press('Enter');
    await page.getByRole('region', { name: 'Approve trigger-elicitation-request' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Allow once' }).click();
    const form = page.getByRole('region', { name: 'Request from Tools' });
    await form.waitFor({ timeout: 30_000 });
    // Screen readers hear that the server asks something, as they hear an approval.
    await expect
      .poll(() => announcements().textContent())
      .toBe('Tools asks you: Please provide inputs for the following fields:');
    await expectAccessible('elicitation');
    await form.getByLabel('String with email format').fill('not an email');
    await form.getByRole('button', { name: 'Accept' }).click();
    await form.getByText('Enter an email address, like name@example.com.').waitFor();
    await expectAccessible('elicitation-errors');
    await form.getByRole('button', { name: 'Decline' }).click();
    await messages().getByText('No details, fine.').waitFor({ timeout: 30_000 });
  });

  it("a thread's settings", async () => {
    await page.getByRole('button', { name: 'Thread menu' }).click(); // The thread's settings are under it.
    await page.getByText('Thread settings', { exact: true }).click();
    await page.getByRole('textbox', { name: 'System prompt' }).waitFor();
    await expectAccessible('thread-settings');
    await page.getByText('Thread settings', { exact: true }).click();
    await page.getByRole('button', { name: 'Thread menu' }).click();
  });

  it('Settings, every section', async () => {
    await openSettingsWithAdvanced();
    await page
      .getByRole('button', { name: /^Revoke/ })
      .first()
      .waitFor();
    await expectAccessible('settings');
    await closeSettings();
  });

  it('at phone width: the thread, its menu, and Settings', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await messages().getByText('No details, fine.').waitFor();
    await expectAccessible('phone-thread');
    await page.getByRole('button', { name: 'Thread menu' }).click();
    await expectAccessible('phone-thread-menu');
    await page.getByRole('button', { name: 'Thread menu' }).click();
    await openSettingsWithAdvanced();
    await expectAccessible('phone-settings');
    await closeSettings();
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('in the dark theme: Settings, the thread, the servers manager, and at phone width', async () => {
    await openSettingsWithAdvanced();
    await page.getByRole('radio', { name: 'Dark' }).check();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await expectAccessible('dark-settings');
    await closeSettings();
    await messages().getByText('No details, fine.').waitFor();
    await expectAccessible('dark-thread');
    await toggleServers(true);
    await page.getByRole('listitem', { name: 'Tools' }).waitFor();
    await expectAccessible('dark-servers');
    await toggleServers(false);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible('dark-phone-thread');
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(pageErrors).toEqual([]);
  });

  it('in forced colors (high contrast), the open thread and a pressed toggle are still marked', async () => {
    await page.emulateMedia({ forcedColors: 'active' });
    try {
      const outline = (element: Element) => getComputedStyle(element).outlineStyle;
      const open = page.locator('.threads li.active');
      await open.waitFor();
      expect(await open.evaluate(outline)).toBe('solid');
      await toggleServers(true);
      const pressed = page.getByRole('button', { name: 'Servers', exact: true });
      expect(await pressed.getAttribute('aria-pressed')).toBe('true');
      expect(await pressed.evaluate(outline)).toBe('solid');
      await toggleServers(false);
      expect(await pressed.evaluate(outline)).toBe('none');
    } finally {
      await page.emulateMedia({ forcedColors: 'none' });
    }
  });
});
