/**
 * Honest states in the production build (issue #22, item 2): "Thinking…" until the first words, "waiting for your
 * approval" apart from "running", a denied call shown as denied (not failed), a pending approval that survives a
 * reload (go on, or cancel), a stopped answer's tokens counted, and live regions for screen readers.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import { startEverythingRig, type EverythingRig, saveKeyAndBaseUrl } from './app-page';
import { addServer, openNewThread } from './app-steps';

const SHOTS = 'test-results/screenshots';
let rig: EverythingRig | undefined;
let api: FakeAnthropic;
let page: Page;
let pageErrors: string[] = [];

const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message' });
const announcements = () => page.getByRole('status', { name: 'Chat announcements' });
const echoCard = () => messages().locator('details.tool-card', { hasText: 'echo' }).last();
const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` });
/** A count as the page writes it, whatever the browser's locale groups digits with. */
const count = (n: number) => new RegExp(String(n).replace(/\B(?=(\d{3})+$)/g, '[,.\\s\u00a0\u202f]?'));

async function newThreadWithTools(): Promise<void> {
  await openNewThread(page);
  await page.getByRole('switch', { name: 'Tools', exact: true }).check();
}

async function send(text: string): Promise<void> {
  await box().fill(text);
  await box().press('Enter');
}

/** The tool_result the model was sent for `toolUseId` in the latest request. */
function sentResult(toolUseId: string) {
  for (const message of api.requests.at(-1)?.body.messages ?? [])
    if (Array.isArray(message.content))
      for (const block of message.content)
        if (block.type === 'tool_result' && block.tool_use_id === toolUseId) return block;
  return undefined;
}

describe('honest states', () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    rig = await startEverythingRig({ viewport: { width: 1280, height: 800 } });
    ({ api, page, pageErrors } = rig);
    await saveKeyAndBaseUrl(page, 'sk-ant-honest', api.url);
    await page.getByRole('button', { name: 'Settings' }).click();
    await addServer(page, 'Tools', rig.everything.url);
  });

  afterAll(async () => {
    await rig?.close();
  });

  it('shows "Thinking…" until the first words arrive, then announces the finished answer', async () => {
    await newThreadWithTools();
    let release!: () => void;
    api.script({
      text: ['First words', ' and the rest.'],
      holdAfterChunks: { afterChunks: 0, until: new Promise<void>((r) => (release = r)) },
    });
    await send('Take your time');
    const thinking = page.getByLabel('Waiting for the answer');
    await thinking.waitFor({ timeout: 15_000 });
    expect(await thinking.textContent()).toContain('Thinking…');
    await shot('honest-1-thinking');
    release();
    await messages().getByText('First words and the rest.').waitFor({ timeout: 15_000 });
    await thinking.waitFor({ state: 'detached' });
    await expect.poll(() => announcements().textContent()).toBe('Answer complete.');
  });

  it('while the API makes the answer wait (429, retry-after), the waiting line says why and when it tries again', async () => {
    await newThreadWithTools();
    // A wait far longer than the test: the line is read while it lasts, then Stop ends it. The page's clock is the
    // test's from here (it still runs by itself), so a minute of the countdown can pass at once.
    await page.clock.install();
    api.script({ error: { status: 429, retryAfterSeconds: 600 } });
    await send('Are you there?');
    const waiting = page.getByLabel('Waiting for the answer');
    const seconds = async () => Number(/trying again in (\d+) s…/.exec((await waiting.textContent()) ?? '')?.[1]);
    await expect
      .poll(() => waiting.textContent(), { timeout: 15_000 })
      .toMatch(/The API is rate-limiting this key \(429\): trying again in (600|599|598) s…/);
    await shot('honest-rate-limited');
    // It counts down, and a screen reader hears the reason once (not a number every second).
    const before = await seconds();
    await page.clock.fastForward(60_000);
    await expect.poll(seconds).toBeLessThanOrEqual(before - 60);
    await page
      .getByRole('status')
      .filter({ hasText: 'The API is rate-limiting this key (429); the app tries again by itself.' })
      .waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await waiting.waitFor({ state: 'detached' });
    // Stopped, the thread goes on: the next message is answered.
    api.script({ text: 'Here now.' });
    await send('Again?');
    await messages().getByText('Here now.').waitFor({ timeout: 15_000 });
  });

  it('a call waiting for approval says so (not "running"), is announced, and once denied shows as denied, not failed', async () => {
    await newThreadWithTools();
    api.script(
      { toolUses: [{ id: 'toolu_deny', name: 'mcp__tools__echo', input: { message: 'no thanks' } }] },
      { text: 'Understood, I will not echo.' },
    );
    await send('Echo something');
    const approval = page.getByRole('region', { name: 'Approve echo' });
    await approval.waitFor({ timeout: 15_000 });
    expect(await echoCard().locator('summary').textContent()).toContain('waiting for your approval');
    expect(await echoCard().locator('summary').textContent()).not.toContain('running');
    await expect.poll(() => announcements().textContent()).toBe('Approval needed: Tools wants to run echo.');
    await shot('honest-2-waiting-for-approval');
    await approval.getByRole('button', { name: 'Deny' }).click();
    await messages().getByText('Understood, I will not echo.').waitFor({ timeout: 15_000 });
    const summary = (await echoCard().locator('summary').textContent()) ?? '';
    expect(summary).toContain('denied');
    expect(summary).not.toContain('failed');
    expect(await echoCard().getAttribute('class')).not.toContain('tool-error');
    expect(sentResult('toolu_deny')?.is_error).toBe(true);
    await shot('honest-3-denied');
  });

  it('in a batch of calls, one that ended reads "done" with its result while another still waits for approval', async () => {
    await newThreadWithTools();
    api.script(
      {
        toolUses: [
          { id: 'toolu_first', name: 'mcp__tools__echo', input: { message: 'first of two' } },
          { id: 'toolu_second', name: 'mcp__tools__echo', input: { message: 'second of two' } },
        ],
      },
      { text: 'Both echoes came back.' },
    );
    await send('Echo twice');
    const cards = messages().locator('details.tool-card', { hasText: 'echo' });
    // Both calls ask at once, each in its own box; the first one's is answered.
    const approvals = page.getByRole('region', { name: 'Approve echo' });
    await expect.poll(() => approvals.count(), { timeout: 15_000 }).toBe(2);
    // Answered from the keyboard: focus goes to the question still waiting (its card, not a button), not the box.
    await approvals.first().getByRole('button', { name: 'Allow once' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => approvals.count(), { timeout: 15_000 }).toBe(1);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Approve echo');
    // The first call ran and ended; the second is still being asked about.
    await expect
      .poll(() => cards.locator('summary').allTextContents(), { timeout: 15_000 })
      .toEqual([expect.stringMatching(/echo\s*done/), expect.stringMatching(/waiting for your approval/)]);
    await cards.first().locator('summary').click();
    await cards.first().getByText('Echo: first of two').waitFor();
    await shot('honest-batch-one-done-one-waiting');
    await approvals.getByRole('button', { name: 'Allow once' }).click();
    await messages().getByText('Both echoes came back.').waitFor({ timeout: 15_000 });
    expect(await cards.locator('summary').allTextContents()).toEqual([
      expect.stringMatching(/echo\s*done/),
      expect.stringMatching(/echo\s*done/),
    ]);
  });

  it('an approval pending at a reload comes back: allowed, the tool runs and the model gets its result', async () => {
    await newThreadWithTools();
    api.script({ toolUses: [{ id: 'toolu_reload', name: 'mcp__tools__echo', input: { message: 'after reload' } }] });
    await send('Echo across a reload');
    await page.getByRole('region', { name: 'Approve echo' }).waitFor({ timeout: 15_000 });
    const requestsBefore = api.requests.length;
    await page.reload();
    await page.getByRole('heading', { name: 'Echo across a reload' }).waitFor({ timeout: 15_000 });
    const approval = page.getByRole('region', { name: 'Approve echo' });
    await approval.waitFor({ timeout: 15_000 });
    expect(await echoCard().locator('summary').textContent()).toContain('waiting for your approval');
    await shot('honest-4-approval-after-reload');
    api.script({ text: 'The echo said: after reload.' });
    await approval.getByRole('button', { name: 'Allow once' }).click();
    await messages().getByText('The echo said: after reload.').waitFor({ timeout: 15_000 });
    expect(api.requests.length).toBe(requestsBefore + 1);
    expect(JSON.stringify(sentResult('toolu_reload')?.content)).toContain('Echo: after reload');
    expect(await echoCard().locator('summary').textContent()).toContain('done');
  });

  it('an approval pending at a reload can be cancelled with Stop: the call shows denied, and the next turn keeps it in the history', async () => {
    await newThreadWithTools();
    api.script({ toolUses: [{ id: 'toolu_cancel', name: 'mcp__tools__echo', input: { message: 'cancel me' } }] });
    await send('Echo, then change my mind');
    await page.getByRole('region', { name: 'Approve echo' }).waitFor({ timeout: 15_000 });
    await page.reload();
    await page.getByRole('region', { name: 'Approve echo' }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByRole('region', { name: 'Approve echo' }).waitFor({ state: 'detached' });
    await expect.poll(() => echoCard().locator('summary').textContent()).toContain('denied');
    api.script({ text: 'Fine, no echo.' });
    await send('Never mind');
    await messages().getByText('Fine, no echo.').waitFor({ timeout: 15_000 });
    expect(sentResult('toolu_cancel')?.is_error).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it("a stopped answer's tokens count in the thread's total", async () => {
    await newThreadWithTools();
    api.script({ text: ['Partial ', 'answer ', 'never ends'], stallAfterChunks: 2, usage: { input_tokens: 4321 } });
    await send('Start and stop');
    await messages().getByText('Partial answer').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await messages().getByText('Stopped; the answer above is partial.').waitFor({ timeout: 15_000 });
    const total = page.getByLabel('Tokens used in this thread');
    await expect.poll(() => total.textContent()).toMatch(count(4321));
    await expect.poll(() => announcements().textContent()).toBe('Answer stopped.');
  });

  it("every answer's end is announced, not only the first, and a thread opened after starts with nothing to say", async () => {
    await newThreadWithTools();
    api.script({ text: 'One.' });
    await send('First');
    await expect.poll(() => announcements().textContent()).toBe('Answer complete.');
    let release!: () => void;
    api.script({ text: 'Two.', holdAfterChunks: { afterChunks: 0, until: new Promise<void>((r) => (release = r)) } });
    await send('Second');
    // Emptied while the turn runs: the same words set again at its end would be no change to read out.
    await expect.poll(() => announcements().textContent()).toBe('');
    release();
    await messages().getByText('Two.').waitFor({ timeout: 15_000 });
    await expect.poll(() => announcements().textContent()).toBe('Answer complete.');
    await openNewThread(page);
    await expect.poll(() => announcements().textContent()).toBe('');
  });

  it('while one thread is answered, another says where, has no Stop (it would end that answer unseen) and Send waits', async () => {
    await newThreadWithTools();
    let release!: () => void;
    api.script({
      text: 'Done at last.',
      holdAfterChunks: { afterChunks: 0, until: new Promise<void>((r) => (release = r)) },
    });
    await send('A slow question');
    await page.getByLabel('Waiting for the answer').waitFor({ timeout: 15_000 });
    await openNewThread(page);
    const busy = page.getByRole('status').filter({ hasText: 'Claude is answering in “A slow question”' });
    await busy.waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: 'Stop', exact: true }).count()).toBe(0);
    expect(await page.getByLabel('Waiting for the answer').count()).toBe(0); // Not this thread's.
    await box().fill('Meanwhile here');
    expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
    const threads = page.getByRole('navigation', { name: 'Threads' });
    expect(await threads.locator('li', { hasText: 'Answering…' }).textContent()).toContain('A slow question');
    await shot('honest-busy-elsewhere');
    await busy.getByRole('button', { name: 'Open “A slow question”' }).click();
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor({ timeout: 15_000 });
    release();
    await messages().getByText('Done at last.').waitFor({ timeout: 15_000 });
    // The words show as they stream; the turn ends a moment after the last of them.
    await expect.poll(() => threads.getByText('Answering…').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('a thread answered in another tab says so there, and its Send waits until that answer ends, then shows it', async () => {
    await newThreadWithTools();
    let release!: () => void;
    api.script({
      text: 'Written in the first tab.',
      holdAfterChunks: { afterChunks: 0, until: new Promise<void>((r) => (release = r)) },
    });
    await send('Across tabs');
    await page.getByLabel('Waiting for the answer').waitFor({ timeout: 15_000 });
    const other = await page.context().newPage();
    try {
      await other.goto(page.url()); // Opens at the profile's last thread: this one.
      await other.getByRole('heading', { name: 'Across tabs', exact: true }).waitFor({ timeout: 15_000 });
      const note = other.getByRole('status').filter({ hasText: 'Claude is answering in this thread in another tab.' });
      await note.waitFor({ timeout: 15_000 });
      const otherBox = other.getByRole('textbox', { name: 'Message' });
      await otherBox.fill('Sent from the second tab');
      await otherBox.press('Enter'); // Waits: nothing leaves the box unseen.
      expect(await otherBox.inputValue()).toBe('Sent from the second tab');
      expect(await other.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
      expect(await other.getByRole('button', { name: 'Stop', exact: true }).count()).toBe(0);
      release();
      const answer = other.getByRole('list', { name: 'Messages' }).getByText('Written in the first tab.');
      await answer.waitFor({ timeout: 15_000 });
      await note.waitFor({ state: 'detached', timeout: 15_000 });
      await expect.poll(() => other.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(false);
    } finally {
      await other.close();
    }
    expect(pageErrors).toEqual([]);
  });
});
