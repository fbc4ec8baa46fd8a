/**
 * Prompts and sampling in the production build (issue #20, items 2 and 4), against server-everything on 127.0.0.1:
 * `/` lists its prompts from the keyboard, a prompt's arguments are completed by the server and its messages reach
 * the model (the contract fake records them); a server's sampling request is shown, edited, approved, its answer
 * shown again before it goes back, and counted in the turn's trace; a rejected request sends nothing to the model.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { startServerEverything, type ServerEverything } from '../fixtures/server-everything';
import { openAppPage, saveKeyAndBaseUrl } from './app-page';
import { startAppServer, type AppServer } from './app-server';
import { openNewThread, switchServerOn } from './app-steps';
import type { LaunchedChromium } from './browser';

const SHOTS = 'test-results/screenshots';
let everything: ServerEverything | undefined;
let api: FakeAnthropic | undefined;
let app: AppServer | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;
let pageErrors: string[] = [];

const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message', exact: true });
const samplingCard = () => page.getByRole('region', { name: 'Model request from Everything' });
/** The text of the last tool result the model received. */
const lastToolResult = () =>
  JSON.stringify(
    api!.requests
      .at(-1)!
      .body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((b) => b.type === 'tool_result')
      .at(-1),
  );

/** A new thread with Everything on. */
async function newThread(): Promise<void> {
  await openNewThread(page);
  await switchServerOn(page, 'Everything');
}

/** Sends a message that makes the model call the sampling tool, allowed once; resolves once the request shows. */
async function startSampling(prompt: string): Promise<void> {
  api!.script({ toolUses: [{ name: 'mcp__everything__trigger-sampling-request', input: { prompt, maxTokens: 50 } }] });
  await box().fill('Ask the server to sample');
  await box().press('Enter');
  await page.getByRole('button', { name: 'Allow once' }).click({ timeout: 30_000 });
  await samplingCard().waitFor({ timeout: 30_000 });
}

describe('prompts and sampling in the chat', () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    [everything, api, app] = await Promise.all([
      startServerEverything({ mode: 'streamableHttp' }),
      startFakeAnthropic(),
      startAppServer(),
    ]);
    const appConfig = {
      servers: [{ id: 'everything', name: 'Everything', url: everything.url }],
      defaults: { toolSearch: { deferral: 'never' } },
    };
    ({ browser, page, pageErrors } = await openAppPage(app.url, { appConfig }));
    await saveKeyAndBaseUrl(page, 'sk-ant-prompts-e2e', api.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await api?.stop();
    await everything?.stop();
  });

  it('/ lists the prompts, the keyboard picks one, the server completes its arguments, and Send runs it', async () => {
    await openNewThread(page);
    // No server on, no prompts: the box does not offer them; with Everything (which declares prompts) on, it does.
    expect(await box().getAttribute('placeholder')).toBe('Ask anything; @ mentions a server or tool');
    await switchServerOn(page, 'Everything');
    await expect
      .poll(() => box().getAttribute('placeholder'), { timeout: 30_000 })
      .toBe('Ask anything; @ mentions a server or tool, / picks a prompt');
    await box().click();
    await box().pressSequentially('/team');
    const list = page.getByRole('listbox', { name: 'Prompts of this thread’s servers' });
    await list.getByRole('option', { name: /Team Management/ }).waitFor({ timeout: 30_000 });
    expect(await box().getAttribute('aria-activedescendant')).toBe(
      await list.getByRole('option').first().getAttribute('id'),
    );
    await box().press('Enter');
    const form = page.getByRole('form', { name: 'Prompt Team Management from Everything' });
    await form.waitFor();
    expect(await box().inputValue()).toBe(''); // The "/team" typed to find it is gone.
    const department = form.getByLabel('department (required)');
    await expect.poll(() => department.evaluate((el) => el === document.activeElement)).toBe(true);
    await department.pressSequentially('S');
    const departments = form.getByRole('group', { name: 'Suggestions for department' });
    // The suggestions for the empty field (all four) give way to those for "S".
    await expect
      .poll(() => departments.getByRole('button').allTextContents(), { timeout: 30_000 })
      .toEqual(['Sales', 'Support']);
    await departments.getByRole('button', { name: 'Sales' }).click();
    expect(await department.inputValue()).toBe('Sales');
    // Focused before anything is typed, the name offers the department's people (asked again with Sales filled in).
    await form.getByLabel('name (required)').focus();
    await expect
      .poll(() => form.getByRole('group', { name: 'Suggestions for name' }).getByRole('button').allTextContents(), {
        timeout: 30_000,
      })
      .toContain('Eve');
    await form.getByLabel('name (required)').pressSequentially('E');
    await form.getByRole('group', { name: 'Suggestions for name' }).getByRole('button', { name: 'Eve' }).click();
    await page.screenshot({ path: `${SHOTS}/prompt-form.png` });

    api!.script({ text: 'Eve now leads Sales.' });
    await form.getByRole('button', { name: 'Send prompt' }).click();
    await messages().getByText('Eve now leads Sales.').waitFor({ timeout: 30_000 });
    const sent = api!.requests.at(-1)!.body.messages;
    expect(sent[0]).toMatchObject({
      role: 'user',
      content: [expect.objectContaining({ type: 'text', text: 'Please promote Eve to the head of the Sales team.' })],
    });
    await messages().getByText('Please promote Eve to the head of the Sales team.').waitFor();
    expect(await form.count()).toBe(0);
  });

  it('Insert puts a text prompt into the message box; a server error shows in the form', async () => {
    await newThread();
    // Escape on a bare `/` closes the list for that `/` only: typed again, it opens again.
    const list = page.getByRole('listbox', { name: 'Prompts of this thread’s servers' });
    await box().click();
    await box().pressSequentially('/');
    await list.waitFor();
    await box().press('Escape');
    await expect.poll(() => list.count()).toBe(0);
    await box().press('Backspace');
    await box().pressSequentially('/');
    await list.waitFor();
    await box().press('Backspace');
    await box().pressSequentially('/resource');
    await box().press('Enter');
    const resourceForm = page.getByRole('form', { name: 'Prompt Resource Prompt from Everything' });
    await resourceForm.getByLabel('resourceType (required)').fill('Video');
    await resourceForm.getByLabel('resourceId (required)').fill('1');
    await resourceForm.getByRole('button', { name: 'Send prompt' }).click();
    await resourceForm
      .getByRole('alert')
      .filter({ hasText: 'Everything could not give the prompt "resource-prompt"' })
      .waitFor({ timeout: 30_000 });
    expect(await resourceForm.getByRole('alert').textContent()).toContain('Invalid resourceType: Video');
    await resourceForm.getByRole('button', { name: 'Cancel' }).click();

    await box().pressSequentially('/args');
    await box().press('Enter');
    const form = page.getByRole('form', { name: 'Prompt Arguments Prompt from Everything' });
    await form.getByLabel('city (required)').fill('Lisbon');
    await form.getByRole('button', { name: 'Insert into message' }).click();
    await expect.poll(() => box().inputValue(), { timeout: 30_000 }).toBe("What's weather in Lisbon?");
    await expect.poll(() => box().evaluate((el) => el === document.activeElement)).toBe(true);
    await box().fill('');
  });

  it('a prompt form stays with its thread: another thread, or its server switched off, closes it; the keyboard stays in it', async () => {
    await newThread();
    const simple = page.getByRole('form', { name: 'Prompt Simple Prompt from Everything' });
    await box().click();
    await box().pressSequentially('/simple');
    await box().press('Enter');
    await simple.waitFor({ timeout: 30_000 });
    // The first test's thread, named after its prompt (an empty thread would be opened again by New thread).
    await page
      .getByRole('navigation', { name: 'Threads' })
      .getByRole('button', { name: 'Team Management', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Team Management', exact: true }).waitFor();
    await expect.poll(() => simple.count()).toBe(0);

    await newThread();
    await box().click();
    await box().pressSequentially('/simple');
    await box().press('Enter');
    await simple.waitFor({ timeout: 30_000 });
    await page.getByRole('switch', { name: 'Everything', exact: true }).uncheck();
    await expect.poll(() => simple.count()).toBe(0);
    await switchServerOn(page, 'Everything');

    // A suggestion picked from the keyboard keeps the keyboard in its field, and a server error keeps it on the button.
    await box().click();
    await box().pressSequentially('/team');
    await box().press('Enter');
    const form = page.getByRole('form', { name: 'Prompt Team Management from Everything' });
    const sales = form
      .getByRole('group', { name: 'Suggestions for department' })
      .getByRole('button', { name: 'Sales' });
    await sales.waitFor({ timeout: 30_000 });
    await sales.focus();
    await page.keyboard.press('Enter');
    const department = form.getByLabel('department (required)');
    expect(await department.inputValue()).toBe('Sales');
    await expect.poll(() => department.evaluate((el) => el === document.activeElement)).toBe(true);
    await form.getByRole('button', { name: 'Cancel' }).click();

    await box().pressSequentially('/resource');
    await box().press('Enter');
    const resourceForm = page.getByRole('form', { name: 'Prompt Resource Prompt from Everything' });
    await resourceForm.getByLabel('resourceType (required)').fill('Video');
    await resourceForm.getByLabel('resourceId (required)').fill('1');
    const send = resourceForm.getByRole('button', { name: 'Send prompt' });
    await send.focus();
    await page.keyboard.press('Enter');
    await resourceForm.getByRole('alert').filter({ hasText: 'Invalid resourceType' }).waitFor({ timeout: 30_000 });
    expect(await send.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => resourceForm.count()).toBe(0);
  });

  it('a sampling request runs only once approved, with the edits, and its answer goes back only when sent', async () => {
    await newThread();
    const callsBefore = api!.requests.length;
    await startSampling('a haiku about tea');
    const card = samplingCard();
    expect(await card.getByLabel('System prompt').inputValue()).toBe('You are a helpful test server.');
    const text = card.getByLabel('Message 1 text');
    expect(await text.inputValue()).toBe('Resource trigger-sampling-request context: a haiku about tea');
    expect(await card.textContent()).toContain('Max tokens: 50');
    expect(api!.requests.length).toBe(callsBefore + 1); // Only the turn's own call so far.
    await text.fill('Write a haiku about green tea.');
    await page.screenshot({ path: `${SHOTS}/sampling-request.png` });

    api!.script({ text: 'Steam curls upward' }, { text: 'The server has its haiku.' });
    await card.getByRole('button', { name: 'Approve and run' }).click();
    await card.getByRole('button', { name: 'Send answer to Everything' }).waitFor({ timeout: 30_000 });
    expect(await card.textContent()).toContain('Steam curls upward');
    expect(await card.textContent()).toContain('The model finished:'); // In words, not the API's "end_turn".
    expect(await card.textContent()).not.toContain('end_turn');
    const sampled = api!.requests.at(-1)!;
    expect(sampled.toolNames).toEqual([]);
    expect(sampled.body.max_tokens).toBe(50);
    expect(JSON.stringify(sampled.body.messages)).toContain('Write a haiku about green tea.');
    expect(api!.pendingTurns).toBe(1); // The server has not had the answer, so the turn has not gone on.
    await page.screenshot({ path: `${SHOTS}/sampling-answer.png` });

    await card.getByRole('button', { name: 'Send answer to Everything' }).click();
    await messages().getByText('The server has its haiku.').waitFor({ timeout: 30_000 });
    expect(lastToolResult()).toContain('Steam curls upward');
    await messages()
      .getByRole('button', { name: /^Trace/ })
      .last()
      .click();
    const trace = messages().getByRole('region', { name: 'Trace of this turn' });
    await trace.getByRole('listitem').filter({ hasText: 'Model call for Everything' }).waitFor();
  });

  it('a rejected sampling request sends nothing to the model and the server is told', async () => {
    await newThread();
    await startSampling('secrets');
    const callsBefore = api!.requests.length;
    api!.script({ text: 'The server was refused.' });
    await samplingCard().getByRole('button', { name: 'Reject' }).click();
    await messages().getByText('The server was refused.').waitFor({ timeout: 30_000 });
    expect(api!.requests.length).toBe(callsBefore + 1); // The turn's next call only.
    expect(lastToolResult()).toContain('The person rejected the sampling request.');
  });

  it('"Allow for this thread" runs the server’s later requests without asking, shown and marked, after a reload too', async () => {
    await newThread();
    await startSampling('first poem');
    api!.script({ text: 'First answer' }, { text: 'Done one.' });
    await samplingCard().getByRole('button', { name: 'Allow for this thread' }).click();
    // No "Send answer": the answer went back, the turn went on, and the card shows what was sent and answered.
    await messages().getByText('Done one.').waitFor({ timeout: 30_000 });
    expect(lastToolResult()).toContain('First answer');
    await samplingCard().getByText('Ran without asking: allowed for this thread.').waitFor();
    expect(await samplingCard().textContent()).toContain('First answer');

    // Remembered on the thread: after a reload the server's next request runs and answers with no question.
    await page.reload();
    await messages().getByText('Done one.').waitFor({ timeout: 30_000 });
    api!.script(
      { toolUses: [{ name: 'mcp__everything__trigger-sampling-request', input: { prompt: 'second poem' } }] },
      { text: 'Second answer' },
      { text: 'Done two.' },
    );
    await box().fill('Ask the server again');
    await box().press('Enter');
    await page.getByRole('button', { name: 'Allow once' }).click({ timeout: 30_000 });
    await messages().getByText('Done two.').waitFor({ timeout: 30_000 });
    expect(lastToolResult()).toContain('Second answer');
    const card = samplingCard();
    expect(await card.textContent()).toContain('second poem');
    expect(await card.textContent()).toContain('Second answer');
    expect(await card.getByRole('button', { name: 'Approve and run' }).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/sampling-allowed-for-thread.png` });

    // Stop allowing: the next request asks first again.
    await card.getByRole('button', { name: 'Stop allowing' }).click();
    await card.getByText(/its next request asks first/).waitFor({ timeout: 15_000 });
    await card.getByRole('button', { name: 'Dismiss' }).click();
    await startSampling('third poem');
    await samplingCard().getByRole('button', { name: 'Approve and run' }).waitFor();
    api!.script({ text: 'Refused again.' });
    await samplingCard().getByRole('button', { name: 'Reject' }).click();
    await messages().getByText('Refused again.').waitFor({ timeout: 30_000 });
  });

  it('the thread menu lists a server allowed to sample and revokes it, also after a reload (no card on screen)', async () => {
    await newThread();
    await startSampling('allowed poem');
    api!.script({ text: 'Allowed answer' }, { text: 'Done allowed.' });
    await samplingCard().getByRole('button', { name: 'Allow for this thread' }).click();
    await messages().getByText('Done allowed.').waitFor({ timeout: 30_000 });

    await page.reload();
    await messages().getByText('Done allowed.').waitFor({ timeout: 30_000 });
    expect(await samplingCard().count()).toBe(0);
    await page.getByRole('button', { name: 'Thread menu' }).click();
    const section = page.getByRole('region', { name: 'Sampling allowed in this thread' });
    expect(await section.textContent()).toContain('Everything runs model calls here without asking.');
    await section.getByRole('button', { name: 'Stop allowing sampling for Everything' }).click();
    await section.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByRole('button', { name: 'Thread menu' }).click();

    // Revoked: the server's next request in this thread asks first.
    await startSampling('asked poem');
    await samplingCard().getByRole('button', { name: 'Approve and run' }).waitFor();
    api!.script({ text: 'Refused.' });
    await samplingCard().getByRole('button', { name: 'Reject' }).click();
    await messages().getByText('Refused.').waitFor({ timeout: 30_000 });
  });

  it('attaches a resource of server-everything from the @ list; the request carries its text (issue #20, item 1)', async () => {
    await newThread();
    await box().fill('Summarise this');
    await box().pressSequentially(' @features');
    await page.getByRole('option', { name: /features\.md/ }).waitFor({ timeout: 30_000 });
    await box().press('Enter');
    const toSend = page.getByRole('list', { name: 'Attachments to send' });
    await toSend.getByText('features.md').waitFor({ timeout: 30_000 });
    expect((await box().inputValue()).trim()).toBe('Summarise this');

    api!.script({ text: 'It lists the features.' });
    await box().press('Enter');
    await messages().getByText('It lists the features.').waitFor({ timeout: 30_000 });
    const content = api!.requests.at(-1)!.body.messages.at(-1)!.content as unknown as Record<string, unknown>[];
    const attached = content.find((b) => typeof b.text === 'string' && b.text.startsWith('Attached resource '));
    expect(attached?.text).toMatch(
      /^Attached resource demo:\/\/resource\/static\/document\/features\.md of Everything \(text\/markdown, [\d.,]+ [KM]?B\):\n\n\S/,
    );
    expect(content.at(-1)).toMatchObject({ type: 'text', text: 'Summarise this' });
  });

  it('no request was shown or refused twice: a prompt error did not make the connection replay answered requests', async () => {
    // A JSON-RPC error answer (the prompt error above) once made the SDK resume the stream, and server-everything's
    // replay then brought back sampling requests already answered: refused as "no turn is running", or shown again.
    expect(await page.getByText(/asked to run the model and was refused/).count()).toBe(0);
    expect(await samplingCard().count()).toBe(0);
  });

  it('raised no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
