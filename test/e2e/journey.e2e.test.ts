/**
 * The whole journey in the production build: first run and the key, a server added at runtime, a thread that
 * enables it, the model searching and loading a deferred tool, the approval, the call with an image, the
 * final answer; a reload that keeps everything; a thread without the server; a server that is down.
 */
import { mkdir, readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import { DEFER_ALL_APP_CONFIG, startEverythingRig, type EverythingRig, saveKeyAndBaseUrl } from './app-page';
import { dumpIndexedDb } from './idb-dump';
import { openSettingsAdvanced } from './settings-steps';

const SHOTS = 'test-results/screenshots';
const API_KEY = `sk-ant-journey-${Date.now()}`;
let rig: EverythingRig | undefined;
let api: FakeAnthropic | undefined;
let everything: EverythingRig['everything'] | undefined;
let page: Page;

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
const messages = () => page.getByRole('list', { name: 'Messages' });

describe('the journey of a person using the app', () => {
  let pageErrors: string[] = [];
  let consoleLines: string[] = [];

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    // The deployer's app-config.json for this run: defer tools always and preload none, so the model must search.
    rig = await startEverythingRig({ appConfig: DEFER_ALL_APP_CONFIG });
    ({ everything, api, page, pageErrors, consoleLines } = rig);
  });

  afterAll(async () => {
    await rig?.close();
  });

  it('first run: asks for the API key in Settings and saves it', async () => {
    await page.getByText('Add your Anthropic API key to start chatting').waitFor();
    await shot('1-first-run');
    await page.getByRole('textbox', { name: 'Base URL' }).fill('not a url');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Base URL must be an http(s) URL').waitFor();
    await saveKeyAndBaseUrl(page, API_KEY, api!.url);
    await expect.poll(() => page.getByLabel('API key').getAttribute('placeholder')).toContain('saved');
    // With a working key the model list comes from the API (under Advanced settings, which a Save leaves folded).
    await openSettingsAdvanced(page);
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Model' }).locator('option').allTextContents())
      .toContain('claude-haiku-4-5-20251001');
  });

  it('adds a server at runtime and sees it connect with its tools', async () => {
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.getByRole('textbox', { name: 'Server name' }).fill('Everything');
    await page.getByRole('textbox', { name: 'Server URL' }).fill(everything!.url);
    await page.getByRole('button', { name: 'Add server' }).click();
    const item = page.getByRole('listitem', { name: 'Everything' });
    await expect.poll(() => item.textContent(), { timeout: 15_000 }).toMatch(/Connected\s*1[0-9] tools/);
    await item.getByText('Added. As your first server it is on in new threads.').waitFor();
    await shot('2-servers');
    await page.getByRole('button', { name: 'Servers' }).click();
  });

  it('asks in a new thread: the model searches, loads the tool, the person approves, the image and answer appear', async () => {
    await page.getByRole('button', { name: 'New thread', exact: true }).click();
    // The first server added is on in new threads: the person does not have to switch it on.
    await expect
      .poll(() => page.getByRole('switch', { name: 'Everything', exact: true }).isChecked(), { timeout: 15_000 })
      .toBe(true);
    api!.script(
      { toolUses: [{ name: 'tool_search', input: { query: 'tiny image' } }] },
      (request) =>
        request.toolNames.includes('mcp__everything__get-tiny-image')
          ? { toolUses: [{ name: 'mcp__everything__get-tiny-image', input: {} }] }
          : { text: `The image tool was not loaded; I had ${request.toolNames.join(', ')}` },
      { text: ['Here is the **tiny image** ', 'the server returned.'], delayMs: 20 },
    );
    await page.getByRole('textbox', { name: 'Message' }).fill('Show me a tiny image');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    const allowOnce = page.getByRole('button', { name: 'Allow once' });
    await allowOnce.waitFor({ timeout: 15_000 });
    await shot('3-approval');
    await allowOnce.click();
    await messages().getByText('the server returned.').waitFor({ timeout: 15_000 });
    // The image shows under the folded tool card, without opening it.
    await messages().getByRole('img', { name: 'Image returned by get-tiny-image' }).waitFor();
    expect(
      await messages()
        .locator('details.tool-card')
        .filter({ has: page.locator('summary', { hasText: 'get-tiny-image' }) })
        .getAttribute('open'),
    ).toBeNull();
    await shot('4-answer-with-tool-card');
    expect(api!.requests.at(-3)?.toolNames).toEqual(['tool_search', 'execute_code']);
    expect(api!.requests.at(-2)?.toolNames).toContain('mcp__everything__get-tiny-image');
    expect(await page.getByRole('button', { name: 'Show me a tiny image', exact: true }).count()).toBe(1); // the thread took its title
  });

  it('exports the thread with its trace as Markdown', async () => {
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Thread menu' }).click(); // The exports are under it.
    await page.getByRole('button', { name: 'Export Markdown' }).click();
    const file = await (await downloaded).path();
    await page.getByRole('button', { name: 'Thread menu' }).click();
    const markdown = await readFile(file, 'utf8');
    expect(markdown).toContain('# Show me a tiny image');
    expect(markdown).toContain('**Tool call** `mcp__everything__get-tiny-image`');
    expect(markdown).toContain('tool search (bm25): "tiny image"');
    expect(markdown).toContain('(allow-once by person)');
  });

  it('after a reload: the thread, its messages, the server and the key are all still there', async () => {
    await page.reload();
    await messages().getByText('the server returned.').waitFor({ timeout: 15_000 });
    expect(await page.getByRole('switch', { name: 'Everything', exact: true }).isChecked()).toBe(true);
    expect(await page.getByText('Add your Anthropic API key').count()).toBe(0);
    const dump = await dumpIndexedDb(page);
    expect(dump).not.toContain(API_KEY);
  });

  it('with the server switched off in the thread, its tools can no longer be called', async () => {
    await page.getByRole('switch', { name: 'Everything', exact: true }).uncheck();
    api!.script(
      { toolUses: [{ name: 'mcp__everything__echo', input: { message: 'sneaky' } }] },
      { text: 'I cannot use that tool here.' },
    );
    await page.getByRole('textbox', { name: 'Message' }).fill('Echo something');
    await page.getByRole('button', { name: 'Send' }).click();
    await messages().getByText('I cannot use that tool here.').waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: 'Allow once' }).count()).toBe(0);
    expect(JSON.stringify(api!.requests.at(-1)?.body.messages)).toContain(
      'of mcp__everything__echo is switched off in this thread.',
    );
  });

  it('a second thread has its own server set', async () => {
    const everythingSwitch = page.getByRole('switch', { name: 'Everything', exact: true });
    await page.getByRole('button', { name: 'New thread', exact: true }).click();
    await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
    // A new thread starts with the servers on in new threads (the first one added is)...
    await expect.poll(() => everythingSwitch.isChecked()).toBe(true);
    // ...while the first thread keeps its own choice: Everything was switched off there.
    await page.getByRole('button', { name: 'Show me a tiny image', exact: true }).click();
    await page.getByRole('heading', { name: 'Show me a tiny image', exact: true }).waitFor();
    await expect.poll(() => everythingSwitch.isChecked()).toBe(false);
  });

  it("uses the thread's own system prompt and extended thinking, and shows the thinking", async () => {
    await page.getByRole('button', { name: 'Thread menu' }).click(); // The thread's settings are under it.
    await page.getByText('Thread settings', { exact: true }).click();
    await page.getByRole('textbox', { name: 'System prompt' }).fill('Be terse.');
    await page.getByRole('checkbox', { name: 'Extended thinking (shown in the answer)' }).check();
    await page.getByRole('button', { name: 'Save thread settings' }).click();
    await page.getByText('Saved for this thread.').waitFor();
    await page.getByRole('button', { name: 'Thread menu' }).click();
    api!.script({ thinking: 'The person wants brevity.', text: 'Terse answer.' });
    await page.getByRole('textbox', { name: 'Message' }).fill('Think first');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await messages().getByText('Terse answer.').waitFor({ timeout: 15_000 });
    const body = api!.requests.at(-1)?.body;
    expect(body?.system).toEqual([{ type: 'text', text: 'Be terse.', cache_control: { type: 'ephemeral' } }]);
    expect(body?.thinking).toEqual({ type: 'enabled', budget_tokens: 8000 });
    await messages().getByText('Thinking').last().click();
    await messages().getByText('The person wants brevity.').waitFor();
  });

  it('renames a thread (an empty title is refused next to the field) and finds it by search', async () => {
    await page.getByRole('button', { name: 'Rename thread Show me a tiny image' }).click();
    await page.getByRole('textbox', { name: 'Thread title' }).fill('   ');
    await page.getByRole('textbox', { name: 'Thread title' }).press('Enter');
    await page.getByText('A thread needs a title.', { exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'Thread title' }).fill('Tiny images');
    await page.getByRole('textbox', { name: 'Thread title' }).press('Enter');
    await page.getByRole('button', { name: 'Tiny images', exact: true }).waitFor();
    await page.getByRole('searchbox', { name: 'Search threads' }).fill('tiny');
    // Each entry also shows when it changed and the start of its latest answer (issue #22); the search is about titles.
    const titles = page.getByRole('navigation', { name: 'Threads' }).locator('.thread-link .thread-title');
    expect(await titles.allTextContents()).toEqual(['Tiny images']);
    // The preview line under a title is searched too: a word only a preview holds finds its thread.
    await page.getByRole('searchbox', { name: 'Search threads' }).fill('');
    const entries = await page
      .getByRole('navigation', { name: 'Threads' })
      .locator('.thread-link')
      .evaluateAll((links) =>
        links.map((link) => ({
          title: link.querySelector('.thread-title')?.textContent ?? '',
          text: link.textContent ?? '',
        })),
      );
    const allTitles = entries.map((e) => e.title.toLowerCase()).join(' ');
    const found = entries.flatMap(({ title, text }) =>
      (text.slice(title.length).match(/\p{L}{5,}/gu) ?? [])
        .filter((w) => !allTitles.includes(w.toLowerCase()))
        .map((word) => ({ title, word })),
    )[0];
    expect(found, 'a thread whose preview has a word no title has').toBeDefined();
    await page.getByRole('searchbox', { name: 'Search threads' }).fill(found!.word);
    await expect.poll(() => titles.allTextContents()).toContain(found!.title);
    await page.getByRole('searchbox', { name: 'Search threads' }).fill('');
  });

  it('a server that is down shows a clear status', async () => {
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.getByRole('textbox', { name: 'Server name' }).fill('Offline');
    await page.getByRole('textbox', { name: 'Server URL' }).fill('http://127.0.0.1:9/mcp');
    await page.getByRole('button', { name: 'Add server' }).click();
    // Its connection test fails first, with the reason, and adding it anyway needs a second word.
    const addForm = page.getByRole('form', { name: 'Add a server' });
    await addForm.getByRole('button', { name: 'Add anyway?' }).click({ timeout: 30_000 });
    const item = page.getByRole('listitem', { name: 'Offline' });
    await expect.poll(() => item.textContent(), { timeout: 15_000 }).toContain('Error');
    expect(await item.textContent()).toContain('Either it is not running, or it does not allow this app');
    await shot('5-server-down');
  });

  it('raised no uncaught errors in the page, and never logged the key', () => {
    expect(pageErrors).toEqual([]);
    expect(consoleLines.join('\n')).not.toContain(API_KEY);
  });
});
