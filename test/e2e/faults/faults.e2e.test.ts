/**
 * The fault matrix's browser rows, in the production build and real Chromium: two servers with the same tool
 * names, tokens only to their own origin, a 10 MB tool result, a tab closed mid-answer, a full disk, and a sweep
 * of every place a secret could leak to.
 */
import { randomBytes } from 'node:crypto';
import { saveKeyAndBaseUrl } from '../app-page';
import { mkdir, readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAB_CLOSED_NOTE } from '../../../src/agent/run-turn';
import { startFakeAnthropic, type FakeAnthropic } from '../../fakes/fake-anthropic';
import { startFaultMcpServer, type FaultMcpServer } from '../../fixtures/fault-mcp-server';
import { startAppServer, type AppServer } from '../app-server';
import { addBearerServer } from '../app-steps';
import { fillStorage, launchQuotaBrowser, putRawMessage, storedMessages, webStorageText } from '../fault-page';
import { dumpIndexedDb } from '../idb-dump';
import { leakedSecrets } from '../secret-leaks';

const SHOTS = 'test-results/screenshots';
const SECRETS = {
  apiKey: `sk-ant-faults-${Date.now()}`,
  tokenOne: `token-one-${Date.now()}`,
  tokenTwo: `token-two-${Date.now()}`,
};
let app: AppServer | undefined;
let browser: Browser | undefined;
let api: FakeAnthropic | undefined;
let one: FaultMcpServer | undefined;
let two: FaultMcpServer | undefined;
let context: BrowserContext;
/**
 * The origin's quota in this suite: ample for the rows before the full-disk one. Service workers are blocked here, so
 * the app's offline copy takes none of it (test/e2e/faults/offline.e2e.test.ts covers the worker).
 */
const QUOTA_BYTES = 4_000_000;
let page: Page;
const pageErrors: string[] = [];
const consoleLines: string[] = [];

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
const messages = () => page.getByRole('list', { name: 'Messages' });
const composer = () => page.getByRole('textbox', { name: 'Message' });

async function openPage(): Promise<Page> {
  const opened = await context.newPage();
  opened.on('pageerror', (error) => pageErrors.push(error.message));
  opened.on('console', (message) => consoleLines.push(message.text()));
  await opened.setViewportSize({ width: 1280, height: 900 });
  await opened.goto(app!.url);
  return opened;
}

/** Creates a thread and waits until it is the open one (a message typed earlier would go to the previous thread). */
async function newThread(): Promise<void> {
  await page.getByRole('button', { name: 'New thread', exact: true }).click();
  await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
  await page.getByText('No messages yet. Ask something below.').waitFor();
}

async function send(text: string): Promise<void> {
  await composer().fill(text);
  await composer().press('Enter');
}

/** Answers every approval card of this turn with "Allow once" until `count` were allowed. */
async function allowOnce(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const button = page.getByRole('button', { name: 'Allow once' }).first();
    await button.waitFor({ timeout: 15_000 });
    await button.click();
  }
}

describe('faults in the browser', () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    [api, one, two, app] = await Promise.all([
      startFakeAnthropic(),
      startFaultMcpServer({ requireBearer: SECRETS.tokenOne, label: 'server one' }),
      startFaultMcpServer({ requireBearer: SECRETS.tokenTwo, label: 'server two' }),
      startAppServer(),
    ]);
    // A throwaway in-memory profile, with a small quota of its own for the full-disk row.
    ({ browser, context } = await launchQuotaBrowser(app.url, QUOTA_BYTES, {
      defaults: { model: 'claude-sonnet-5' },
    }));
    page = await openPage();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await api?.stop();
    await one?.stop();
    await two?.stop();
  });

  it('setup: the key, and two bearer servers that offer the same tool names', async () => {
    await saveKeyAndBaseUrl(page, SECRETS.apiKey, api!.url);
    await page.getByRole('button', { name: 'Servers' }).click();
    await addBearerServer(page, 'One', one!.url, SECRETS.tokenOne);
    await addBearerServer(page, 'Two', two!.url, SECRETS.tokenTwo);
    await page.getByRole('button', { name: 'Servers' }).click();
  });

  it('two servers with the same tool name: both callable, each answers for itself', async () => {
    await newThread();
    await page.getByRole('switch', { name: 'One', exact: true }).check();
    await page.getByRole('switch', { name: 'Two', exact: true }).check();
    api!.script(
      (request) => ({
        toolUses: ['mcp__one__whoami', 'mcp__two__whoami']
          .filter((name) => request.toolNames.includes(name))
          .map((name) => ({ name, input: {} })),
      }),
      { text: 'Both servers answered.' },
    );
    await send('Ask both servers who they are');
    await allowOnce(2);
    await messages().getByText('Both servers answered.').waitFor({ timeout: 15_000 });
    const cards = messages().locator('details.tool-card');
    expect(await cards.count()).toBe(2);
    for (const summary of await cards.locator('summary').all()) await summary.click();
    await messages().getByText('answered by server one').waitFor();
    await messages().getByText('answered by server two').waitFor();
    expect(api!.requests.at(-2)?.toolNames).toEqual(expect.arrayContaining(['mcp__one__whoami', 'mcp__two__whoami']));
  });

  it('sends each bearer token only to its own server (two servers, two ports)', () => {
    expect(one!.authorizations.length).toBeGreaterThan(1);
    expect(two!.authorizations.length).toBeGreaterThan(1);
    expect(new Set(one!.authorizations)).toEqual(new Set([`Bearer ${SECRETS.tokenOne}`]));
    expect(new Set(two!.authorizations)).toEqual(new Set([`Bearer ${SECRETS.tokenTwo}`]));
  });

  it('a 10 MB tool result: the card shows it cut short with a note, and the page stays responsive', async () => {
    api!.script(
      { toolUses: [{ name: 'mcp__one__big-result', input: { megabytes: 10 } }] },
      { text: 'That was a big result.' },
    );
    await send('Give me ten megabytes');
    await allowOnce(1);
    await messages().getByText('That was a big result.').waitFor({ timeout: 30_000 });
    const card = messages().locator('details.tool-card', { hasText: 'big-result' });
    await card.locator('summary').click();
    await card.getByText('[Output truncated to 40000 characters.]').waitFor();
    await card.getByText('[Output truncated to 40000 characters.]').scrollIntoViewIfNeeded();
    expect(await card.getByText(/^BEGIN BIG RESULT/).count()).toBe(1);
    // Responsive: typing lands at once, and the model got the cut result, not 10 MB.
    await composer().fill('typing right after the big result');
    expect(await composer().inputValue()).toBe('typing right after the big result');
    await composer().fill('');
    expect(JSON.stringify(api!.requests.at(-1)?.body).length).toBeLessThan(100_000);
    await shot('faults-1-big-result');
  });

  it('a tab closed during a streaming answer: reopened, the saved part is there, marked interrupted', async () => {
    await newThread();
    api!.script({ text: Array.from({ length: 40 }, (_, i) => `word${i} `), delayMs: 150 });
    await send('Tell me a long story');
    await messages().getByText(/word3/).waitFor({ timeout: 15_000 });
    // Close once a few words were saved (the first at once, then about every second while it streams).
    await expect
      .poll(async () => (await storedMessages(page, 'Tell me a long story')).at(-1)?.text ?? '', { timeout: 10_000 })
      .toMatch(/word3 /);
    await page.close();
    page = await openPage();
    const note = messages().getByText(TAB_CLOSED_NOTE);
    await note.waitFor({ timeout: 15_000 });
    expect(
      await messages()
        .getByText(/word0 word1 word2 word3 /)
        .count(),
    ).toBe(1);
    expect(await page.getByLabel('Answer in progress').count()).toBe(0);
    const stored = await storedMessages(page, 'Tell me a long story');
    expect(stored.map((m) => `${m.role}:${m.status}`)).toEqual(['user:complete', 'assistant:interrupted']);
    expect(stored[1]?.text).toMatch(/^word0 word1 word2 word3 /);
    expect(stored[1]?.error).toBe(TAB_CLOSED_NOTE);
    await shot('faults-2-tab-closed');
  });

  it('a full disk: a clear message, nothing half-written, everything still there once there is room', async () => {
    const before = await storedMessages(page, 'Tell me a long story');
    // Fill the origin's storage up to its quota (random bytes: the browser compresses what it stores).
    const filled = await page.evaluate(fillStorage);
    expect(filled).toBeGreaterThan(QUOTA_BYTES / 2);
    await send(`Please keep this note: ${randomBytes(60_000).toString('base64').replace(/.{60}/g, '$& ')}`);
    const alert = page.getByRole('alert').filter({ hasText: 'Storage problem' });
    await alert
      .getByText(
        /^Browser storage is full, so the change to .* was not saved\. Free space by deleting old threads, or allow this site more storage\.$/,
      )
      .waitFor({ timeout: 15_000 });
    await shot('faults-3-disk-full');
    expect(await storedMessages(page, 'Tell me a long story')).toEqual(before);
    await page.evaluate(() => new Promise((resolve) => (indexedDB.deleteDatabase('disk-filler').onsuccess = resolve))); // Room again.
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    expect(await page.getByText('Storage problem').count()).toBe(0);
    api!.script({ text: 'Room again.' });
    await send('Is there room now?');
    await messages().getByText('Room again.').waitFor({ timeout: 15_000 });
    // The answer shows as it streams and is stored complete just after: a reload before that would (rightly) find it
    // interrupted, and the thread would carry a second interrupted note.
    await expect
      .poll(async () => (await storedMessages(page, 'Tell me a long story')).at(-1)?.status, { timeout: 15_000 })
      .toBe('complete');
    await page.reload();
    await messages().getByText('Room again.').waitFor({ timeout: 15_000 });
    expect((await storedMessages(page, 'Tell me a long story')).slice(0, 2)).toEqual(before);
    await page.getByRole('button', { name: 'Ask both servers who they are', exact: true }).waitFor();
  });

  it('a disk that fills while an answer streams: the answer says why it was not kept, and Retry saves one once there is room', async () => {
    await newThread();
    // Incompressible chunks, so that the finished answer cannot fit in what the filler leaves (under 5 kB).
    const chunks = Array.from({ length: 40 }, (_, i) => `chunk${i}:${randomBytes(300).toString('base64')} `);
    api!.script({ text: chunks, delayMs: 150 });
    await send('Answer while the disk fills');
    await messages()
      .getByText(/chunk2:/)
      .waitFor({ timeout: 15_000 });
    expect(await page.evaluate(fillStorage)).toBeGreaterThan(QUOTA_BYTES / 2);
    const line = messages().getByRole('alert');
    await line
      .getByText(/^Browser storage is full, so the change to messages was not saved\./)
      .waitFor({ timeout: 20_000 });
    // The whole answer stays on screen, no longer "in progress", with Retry; the notice says the same.
    expect(
      await messages()
        .getByText(/chunk39:/)
        .count(),
    ).toBe(1);
    expect(await page.getByLabel('Answer in progress').count()).toBe(0);
    // The answer reads as an answer (not in the error colour); only the line under it is an error.
    const colours = await messages()
      .getByText(/chunk39:/)
      .evaluate((text) => [getComputedStyle(text).color, getComputedStyle(document.body).color]);
    expect(colours[0]).toBe(colours[1]);
    await page.getByRole('alert').filter({ hasText: 'Storage problem' }).waitFor();
    await shot('faults-3b-disk-full-while-streaming');
    await page.evaluate(() => new Promise((resolve) => (indexedDB.deleteDatabase('disk-filler').onsuccess = resolve))); // Room again.
    api!.script({ text: 'Saved once there was room.' });
    await messages().getByRole('button', { name: 'Retry' }).click();
    await messages().getByText('Saved once there was room.').waitFor({ timeout: 15_000 });
    // Clicked (not from the keyboard): focus is not moved into the message box, which would raise a phone's keyboard.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null)).not.toBe('Message');
    await expect
      .poll(async () => (await storedMessages(page, 'Answer while the disk fills')).at(-1)?.status, { timeout: 15_000 })
      .toBe('complete');
    await page.reload();
    await messages().getByText('Saved once there was room.').waitFor({ timeout: 15_000 });
    const stored = await storedMessages(page, 'Answer while the disk fills');
    expect(stored.map((m) => `${m.role}:${m.status}`)).toEqual([
      'user:complete',
      'assistant:error',
      'assistant:complete',
    ]);
    expect(api!.requests.at(-1)?.body.messages).toEqual([
      {
        role: 'user',
        content: [{ type: 'text', text: 'Answer while the disk fills', cache_control: { type: 'ephemeral' } }],
      },
    ]);
  });

  it('a corrupted record: skipped with a notice naming it, the rest of the thread loads', async () => {
    await page.getByRole('button', { name: 'Tell me a long story', exact: true }).click();
    await messages().getByText(TAB_CLOSED_NOTE).waitFor();
    // A record as a bug or a hand edit in devtools could leave it, in the open thread.
    await page.evaluate(putRawMessage, {
      threadTitle: 'Tell me a long story',
      record: { id: 'garbled-by-hand', seq: 999, role: 'robot', blocks: 'not a list' },
    });
    await page.reload();
    const alert = page.getByRole('alert').filter({ hasText: 'Storage problem' });
    await alert
      .getByText(/^Stored message record "garbled-by-hand" is unreadable \(.*\); it was skipped\.$/)
      .waitFor({ timeout: 15_000 });
    await messages().getByText(TAB_CLOSED_NOTE).waitFor();
    expect(await messages().getByText('Tell me a long story', { exact: true }).count()).toBe(1);
    await shot('faults-4-corrupt-record');
    await alert.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('two tabs on one thread and one server list: a rename, server switches and a new server in one show in the other', async () => {
    const other = await openPage();
    try {
      await other.getByRole('button', { name: 'Ask both servers who they are', exact: true }).click();
      await page.getByRole('button', { name: 'Ask both servers who they are', exact: true }).click();
      await page.getByRole('switch', { name: 'One', exact: true }).uncheck();
      await other.getByRole('switch', { name: 'Two', exact: true }).uncheck();
      await expect.poll(() => other.getByRole('switch', { name: 'One', exact: true }).isChecked()).toBe(false);
      await expect.poll(() => page.getByRole('switch', { name: 'Two', exact: true }).isChecked()).toBe(false);
      await page.getByRole('button', { name: 'Rename thread Ask both servers who they are' }).click();
      await page.getByRole('textbox', { name: 'Thread title' }).fill('Renamed in the first tab');
      await page.getByRole('textbox', { name: 'Thread title' }).press('Enter');
      await other.getByRole('button', { name: 'Renamed in the first tab', exact: true }).waitFor({ timeout: 10_000 });
      // A server added in one tab shows in the other's thread without a reload.
      await page.getByRole('button', { name: 'Servers' }).click();
      await addBearerServer(page, 'Three', one!.url, SECRETS.tokenOne);
      await page.getByRole('button', { name: 'Servers' }).click();
      await other.getByRole('switch', { name: 'Three', exact: true }).waitFor({ timeout: 10_000 });
    } finally {
      await other.close();
    }
  });

  it('a huge paste is cut at 100,000 characters with a note next to the box, and nothing is sent by itself', async () => {
    const requests = api!.requests.length;
    await composer().fill('0123456789'.repeat(15_000));
    expect((await composer().inputValue()).length).toBe(100_000);
    const note = page
      .getByRole('alert')
      .filter({ hasText: 'A message can hold at most 100,000 characters; the rest was left out.' });
    await note.waitFor();
    await shot('faults-5-huge-paste');
    await composer().fill('short again');
    expect(await note.count()).toBe(0);
    await composer().fill('');
    expect(api!.requests.length).toBe(requests);
  });

  it('finds no secret in plaintext: every IndexedDB store, localStorage, sessionStorage, the console, the exported configuration', async () => {
    const dump = await dumpIndexedDb(page);
    const stores = Object.keys(JSON.parse(dump) as Record<string, unknown>);
    expect(stores).toEqual(
      expect.arrayContaining([
        'mcp-agent/credentials',
        'mcp-agent/messages',
        'mcp-agent/servers',
        'mcp-agent/threads',
        'mcp-agent/profiles',
      ]),
    );
    expect(dump).toContain('Both servers answered.'); // The dump does reach the stored data.
    expect(leakedSecrets(dump, SECRETS)).toEqual([]);
    const webStorage = await page.evaluate(webStorageText);
    expect(leakedSecrets(webStorage, SECRETS)).toEqual([]);
    expect(leakedSecrets(consoleLines.join('\n'), SECRETS)).toEqual([]);

    await page.getByRole('button', { name: 'Settings' }).click();
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export configuration' }).click();
    const exported = await readFile(await (await downloaded).path(), 'utf8');
    expect(exported).toContain(one!.url); // The export does hold the servers.
    expect(leakedSecrets(exported, SECRETS)).toEqual([]);
  });

  it('raised no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
