/**
 * Every MCP result type in the production build (issue #20, items 5 and 6): server-everything's image, structured
 * content, resource links read on click, an embedded blob resource; an SDK-built server's audio, a link it cannot
 * read, and a slow call that Stop cancels on the server; server-everything's long-running tool's progress bar. What
 * the model received is checked in the requests the contract fake recorded.
 */
import { mkdir, readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic, RecordedRequest } from '../fakes/fake-anthropic';
import { startServerEverything, type ServerEverything } from '../fixtures/server-everything';
import { modelToolName } from '../../src/mcp/tool-naming';
import { startTestMcpServer, type TestMcpServer, type ToolEntry } from '../fixtures/test-mcp-server';
import { appServersConfig, saveKeyAndBaseUrl, startModelRig, type ModelRig } from './app-page';

const SHOTS = 'test-results/screenshots';
let everything: ServerEverything | undefined;
let sounds: TestMcpServer | undefined;
let rig: ModelRig | undefined;
let api: FakeAnthropic | undefined;
let page: Page;
let pageErrors: string[] = [];
let consoleLines: string[] = [];

const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message' });
const card = (tool: string) => messages().locator('details.tool-card', { hasText: tool }).last();

/** A WAV of 0.1 s of silence (8 kHz, 8-bit mono), as base64. */
function silentWav(): string {
  const samples = 800;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples, 40);
  return Buffer.concat([header, Buffer.alloc(samples, 128)]).toString('base64');
}

const readOnly = { readOnlyHint: true };
const SOUND_TOOLS: ToolEntry[] = [
  {
    tool: { name: 'chime', description: 'Plays a chime', inputSchema: { type: 'object' }, annotations: readOnly },
    run: async () => ({
      content: [
        { type: 'text', text: 'Here is the **chime**.' },
        { type: 'audio', mimeType: 'audio/wav', data: silentWav() },
      ],
    }),
  },
  {
    tool: { name: 'noisy', description: 'Logs as it works', inputSchema: { type: 'object' }, annotations: readOnly },
    run: async (_args, _signal, extra) => {
      for (const [level, data] of [
        ['debug', 'noisy: warming up'],
        ['warning', 'noisy: disk nearly full'],
        ['error', 'noisy: could not reach the cache'],
      ] as const)
        await extra.sendNotification({ method: 'notifications/message', params: { level, logger: 'noisy', data } });
      return { content: [{ type: 'text', text: 'Noisy work done.' }] };
    },
  },
  {
    // A name the model API cannot take as it is: the model gets `mcp__sounds__notes_search_v2_<hash>`.
    tool: {
      name: 'notes.search v2',
      description: 'Searches notes',
      inputSchema: { type: 'object' },
      annotations: readOnly,
    },
    run: async () => ({ content: [{ type: 'text', text: 'No notes.\nTry another word.' }] }),
  },
  {
    tool: {
      name: 'lost-link',
      description: 'Links to nothing',
      inputSchema: { type: 'object' },
      annotations: readOnly,
    },
    run: async () => ({
      content: [{ type: 'resource_link', uri: 'test://nowhere/missing.txt', name: 'missing.txt' }],
    }),
  },
];

/** The tool_result blocks of a recorded request, by the tool_use id's tool name. */
function toolResults(request: RecordedRequest): Record<string, unknown>[] {
  return request.body.messages.flatMap((m) =>
    Array.isArray(m.content)
      ? (m.content as unknown as Record<string, unknown>[]).filter((b) => b.type === 'tool_result')
      : [],
  );
}

async function newThread(...servers: string[]): Promise<void> {
  await page.getByRole('button', { name: 'New thread', exact: true }).first().click();
  await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
  // The switch follows the stored state, which a busy page may show a moment after the click.
  for (const name of [...servers]) {
    const toggle = page.getByRole('switch', { name, exact: true });
    if (!(await toggle.isChecked())) await toggle.click();
    await expect.poll(() => toggle.isChecked(), { timeout: 15_000 }).toBe(true);
  }
}

async function send(text: string): Promise<void> {
  await box().fill(text);
  await box().press('Enter');
}

describe('MCP results and progress in the chat', () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    [everything, sounds] = await Promise.all([
      startServerEverything({ mode: 'streamableHttp' }),
      startTestMcpServer({ extraTools: SOUND_TOOLS }),
    ]);
    // The deployer's servers: their read-only annotations are trusted, so those tools run without asking.
    const appConfig = appServersConfig([
      { id: 'everything', name: 'Everything', url: everything.url },
      { id: 'sounds', name: 'Sounds', url: sounds.url },
    ]);
    rig = await startModelRig({ appConfig });
    ({ api, page, pageErrors, consoleLines } = rig);
    await saveKeyAndBaseUrl(page, 'sk-ant-results-e2e', api.url);
  });

  afterAll(async () => {
    await rig?.close();
    await sounds?.stop();
    await everything?.stop();
  });

  it('shows an image, structured content, resource links read on click and an embedded text blob as text and a download', async () => {
    await newThread('Everything');
    api!.script(
      {
        toolUses: [
          { name: 'mcp__everything__get-tiny-image', input: {} },
          { name: 'mcp__everything__get-structured-content', input: { location: 'Chicago' } },
          { name: 'mcp__everything__get-resource-links', input: { count: 2 } },
          { name: 'mcp__everything__get-resource-reference', input: { resourceType: 'Blob', resourceId: 3 } },
        ],
      },
      { text: 'All four came back.' },
    );
    await send('Show me every kind of result');
    await messages().getByText('All four came back.').waitFor({ timeout: 30_000 });

    // What the model got: the image as an image block, the link named, the text blob as text under its URI.
    const results = toolResults(api!.requests.at(-1)!);
    expect(results).toHaveLength(4);
    const contents = results.map((r) => JSON.stringify(r.content));
    expect(contents[0]).toContain('"type":"image"');
    expect(contents[0]).toContain('"media_type":"image/png"');
    expect(contents[1]).toContain('temperature');
    expect(contents[2]).toContain('[resource link] Blob Resource 1 demo://resource/dynamic/blob/1 (text/plain)');
    expect(contents[3]).toMatch(
      /\[resource demo:\/\/resource\/dynamic\/blob\/3 \(text\/plain\)\]\\nResource 3: This is a base64 blob created at /,
    );

    // The image shows under the card's summary without opening it; the card's details stay folded.
    const tinyImage = messages().getByRole('img', { name: 'Image returned by get-tiny-image' });
    await tinyImage.waitFor();
    expect(await tinyImage.isVisible()).toBe(true);
    expect(await tinyImage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(await card('get-tiny-image').evaluate((el: HTMLDetailsElement) => el.open)).toBe(false);
    expect(await card('get-tiny-image').locator('.arguments').isVisible()).toBe(false);
    await card('get-tiny-image').locator(':scope > summary').click();
    expect(await card('get-tiny-image').textContent()).toMatch(/Sent to the model: \d+ characters of text, 1 image/);
    expect(await tinyImage.count()).toBe(1); // Opened, the card does not show the image a second time.

    await card('get-structured-content').locator(':scope > summary').click();
    const structured = card('get-structured-content').locator('details.structured-content');
    await structured.locator('summary', { hasText: 'Structured content' }).click();
    expect(await structured.locator('pre').textContent()).toMatch(/"temperature": \d+/);

    await card('get-resource-links').locator(':scope > summary').click();
    await card('get-resource-links').getByRole('button', { name: 'Read Text Resource 2' }).click();
    await card('get-resource-links')
      .getByText(/Resource 2: This is a plaintext resource/)
      .waitFor({ timeout: 15_000 });

    await card('get-resource-reference').locator(':scope > summary').click();
    // The text the blob holds is shown as text, and it can still be saved.
    await card('get-resource-reference')
      .locator('pre.result-text')
      .getByText(/^Resource 3: This is a base64 blob created at /)
      .waitFor();
    const download = card('get-resource-reference').getByRole('button', {
      name: /^Download 3 \(text\/plain, \d+ B\)$/,
    });
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toMatch(/^3(\.txt)?$/); // Chromium may add the type's extension.
    expect(await readFile(await file.path(), 'utf8')).toMatch(/^Resource 3: This is a base64 blob created at /);
    await page.screenshot({ path: `${SHOTS}/mcp-results-everything.png`, fullPage: true });
  });

  it('plays audio, and a link the server cannot read says so on the card', async () => {
    await newThread('Sounds');
    api!.script(
      {
        toolUses: [
          { name: 'mcp__sounds__chime', input: {} },
          { name: 'mcp__sounds__lost-link', input: {} },
          { name: modelToolName('sounds', 'notes.search v2'), input: {} },
        ],
      },
      { text: 'Chimed.' },
    );
    await send('Chime, then follow the link');
    await messages().getByText('Chimed.').waitFor({ timeout: 30_000 });
    const sent = JSON.stringify(toolResults(api!.requests.at(-1)!)[0]?.content);
    expect(sent).toMatch(
      /\[audio \(audio\/wav, 844 B\): shown to the person, not sent; the model API takes no audio\]/,
    );

    // The audio player shows under the folded card; its text stays in the card's details.
    const audio = messages().getByLabel('Audio returned by chime');
    await audio.waitFor();
    expect(await audio.isVisible()).toBe(true);
    expect(await card('chime').evaluate((el: HTMLDetailsElement) => el.open)).toBe(false);
    await card('chime').locator(':scope > summary').click();
    await expect
      .poll(() => audio.evaluate((el: HTMLAudioElement) => el.readyState), { timeout: 15_000 })
      .toBeGreaterThan(0);
    expect(await audio.evaluate((el: HTMLAudioElement) => el.duration)).toBeCloseTo(0.1, 2);
    expect(await card('chime').locator('strong', { hasText: 'chime' }).count()).toBe(1); // The text is markdown.

    // A card names the tool as its server does, not by the name the model API was given.
    expect(await card('No notes.').locator(':scope > summary .tool-name').textContent()).toBe(
      'Sounds · notes.search v2',
    );
    // Its plain lines stay lines (markdown would join them into one).
    await card('No notes.').locator(':scope > summary').click();
    expect(await card('No notes.').locator('.tool-result p').innerText()).toBe('No notes.\nTry another word.');

    await card('lost-link').locator(':scope > summary').click();
    await card('lost-link').getByRole('button', { name: 'Read missing.txt' }).click();
    await card('lost-link')
      .getByText(/^Sounds could not read test:\/\/nowhere\/missing\.txt: /)
      .waitFor({ timeout: 15_000 });
  });

  it('shows the progress of a long call, and Stop cancels a call in flight on its server', async () => {
    await newThread('Everything', 'Sounds');
    api!.script({
      toolUses: [
        { name: 'mcp__everything__trigger-long-running-operation', input: { duration: 600, steps: 1200 } },
        { name: 'mcp__sounds__slow', input: { ms: 600_000 } },
      ],
    });
    await send('Run both long things');
    // slow has no annotations: the person is asked first.
    await page.getByRole('button', { name: 'Allow once' }).click({ timeout: 30_000 });
    const progress = messages().getByRole('status', { name: 'Progress' });
    await progress.locator('progress').waitFor({ timeout: 30_000 });
    await expect.poll(() => progress.textContent(), { timeout: 30_000 }).toMatch(/^\d+%$/);
    expect(Number(await progress.locator('progress').getAttribute('max'))).toBe(1200);
    await expect.poll(() => sounds!.slowCallsStarted, { timeout: 30_000 }).toBe(1);
    await page.screenshot({ path: `${SHOTS}/mcp-results-progress.png` });

    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => sounds!.cancelled, { timeout: 30_000 }).toBe(1);
    await expect.poll(() => messages().getByRole('status', { name: 'Progress' }).count(), { timeout: 30_000 }).toBe(0);
    // The person stopped it: the card says so, without the colour of a failure.
    await expect
      .poll(() => card('slow').locator(':scope > summary').textContent(), { timeout: 30_000 })
      .toMatch(/^Sounds · slowstopped · (\d{1,3} ms|\d+\.\d s) · allowed once$/);
    expect(await card('slow').getAttribute('class')).not.toContain('tool-error');
    await card('slow').locator(':scope > summary').click();
    await card('slow').getByRole('heading', { name: 'Stopped' }).waitFor();
    // The trace agrees: stopped, not failed.
    await messages()
      .getByRole('button', { name: /^Trace/ })
      .last()
      .click();
    const row = messages()
      .getByRole('region', { name: 'Trace of this turn' })
      .getByRole('listitem')
      .filter({ hasText: 'slow' });
    expect(await row.textContent()).toMatch(/· stopped · allowed once/);
    expect(await row.getAttribute('class')).not.toContain('trace-failed');
  });

  it("shows a server's log messages in its detail view, filtered by level, and never in the chat", async () => {
    await newThread('Sounds');
    api!.script({ toolUses: [{ name: 'mcp__sounds__noisy', input: {} }] }, { text: 'Noisy finished.' });
    await send('Do the noisy work');
    await messages().getByText('Noisy finished.').waitFor({ timeout: 30_000 });
    expect(await messages().textContent()).not.toContain('disk nearly full');

    await page.getByRole('button', { name: 'Servers' }).click();
    const server = page.getByRole('listitem', { name: 'Sounds', exact: true });
    await server.locator('summary', { hasText: 'Log (3)' }).click();
    const log = server.getByRole('list', { name: 'Log of Sounds' });
    await expect
      .poll(() => log.getByRole('listitem').allTextContents())
      .toEqual([
        expect.stringMatching(/debug noisy noisy: warming up$/),
        expect.stringMatching(/warning noisy noisy: disk nearly full$/),
        expect.stringMatching(/error noisy noisy: could not reach the cache$/),
      ]);
    await server.getByLabel('Show from level').selectOption('warning');
    await expect.poll(() => log.getByRole('listitem').count()).toBe(2);
    await server.getByLabel('Show from level').selectOption('critical');
    await server.getByText('No messages at critical or above.').waitFor();
    await page.screenshot({ path: `${SHOTS}/mcp-results-server-log.png` });
    await page.getByRole('button', { name: 'Servers' }).click();
  });

  it('raised no uncaught errors and no CSP refusals in the page', () => {
    expect(pageErrors).toEqual([]);
    expect(consoleLines.filter((line) => /Content Security Policy/i.test(line))).toEqual([]);
  });
});
