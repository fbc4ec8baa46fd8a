/**
 * Elicitation in the production build (issue #20, item 3): server-everything's form request answered through the
 * form (checked before sending) and declined; its URL request showing the origin and opening only on a click; an
 * SDK-built server's schema outside the spec declined with the reason in the chat. What the server answered
 * reaches the model in the tool result the contract fake records.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import { startServerEverything, type ServerEverything } from '../fixtures/server-everything';
import { startTestMcpServer, type TestMcpServer, type ToolEntry } from '../fixtures/test-mcp-server';
import { appServersConfig, saveKeyAndBaseUrl, startModelRig, type ModelRig } from './app-page';
import type { AppServer } from './app-server';
import { openNewThread, switchServerOn } from './app-steps';
import type { LaunchedChromium } from './browser';

const SHOTS = 'test-results/screenshots';
let everything: ServerEverything | undefined;
let forms: TestMcpServer | undefined;
let rig: ModelRig | undefined;
let api: FakeAnthropic | undefined;
let app: AppServer | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;
let pageErrors: string[] = [];

const messages = () => page.getByRole('list', { name: 'Messages' });
const box = () => page.getByRole('textbox', { name: 'Message' });
const request = (server: string) => page.getByRole('region', { name: `Request from ${server}` });
/** The text of the last tool result the model received. */
const lastToolResult = () =>
  JSON.stringify(
    api!.requests
      .at(-1)!
      .body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((b) => b.type === 'tool_result')
      .at(-1),
  );

/** A read-only tool that asks the person with this form schema and returns their answer's action. */
const formTool = (name: string, message: string, requestedSchema: object): ToolEntry => ({
  tool: {
    name,
    description: 'Asks with a broken form',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true },
  },
  run: async (_args, _signal, extra) => {
    const answer = await extra.sendRequest(
      { method: 'elicitation/create', params: { message, requestedSchema } } as never,
      ElicitResultSchema,
    );
    return { content: [{ type: 'text', text: `The person's answer: ${answer.action}` }] };
  },
});
const BAD_FORM = formTool('bad-form', 'Your phone?', { type: 'object', properties: {}, required: ['phone'] });
// Outside what the SDK's own schema takes (trial 13): the app's check must still be the one that answers.
const NESTED_FORM = formTool('nested-form', 'Your address?', {
  type: 'object',
  properties: { address: { type: 'object', properties: { street: { type: 'string' } } } },
});

/** How much of an element the person can see (1: all of it), clipped by the scrolling list and the window. */
const visibleShare = (locator: ReturnType<Page['locator']>) =>
  locator.evaluate(
    (el) =>
      new Promise<number>((resolve) => {
        const observer = new IntersectionObserver(([entry]) => {
          observer.disconnect();
          resolve(entry!.intersectionRatio);
        });
        observer.observe(el);
      }),
  );

async function newThread(server: string): Promise<void> {
  await openNewThread(page);
  await switchServerOn(page, server);
}

/** Sends a message that makes the model call `tool`, approving it when asked. */
async function callTool(tool: string, input: Record<string, unknown>, after: string, needsApproval = true) {
  api!.script({ toolUses: [{ name: tool, input }] }, { text: after });
  await box().fill(`Please call ${tool}`);
  await box().press('Enter');
  if (needsApproval) await page.getByRole('button', { name: 'Allow once' }).click({ timeout: 30_000 });
}

describe('elicitation in the chat', () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    [everything, forms] = await Promise.all([
      startServerEverything({ mode: 'streamableHttp' }),
      startTestMcpServer({ extraTools: [BAD_FORM, NESTED_FORM] }),
    ]);
    const appConfig = appServersConfig([
      { id: 'everything', name: 'Everything', url: everything.url },
      { id: 'forms', name: 'Forms', url: forms.url },
    ]);
    rig = await startModelRig({ appConfig });
    ({ api, app, browser, page, pageErrors } = rig);
    await saveKeyAndBaseUrl(page, 'sk-ant-elicitation-e2e', api.url);
  });

  afterAll(async () => {
    await rig?.close();
    await forms?.stop();
    await everything?.stop();
  });

  it('shows the form naming the server, refuses a wrong answer before sending, and sends the corrected one', async () => {
    await newThread('Everything');
    await callTool('mcp__everything__trigger-elicitation-request', {}, 'Thanks for the details.');
    const form = request('Everything');
    await form.waitFor({ timeout: 30_000 });
    // The card names the server and where it answers, and says what never to type into a server's form.
    const host = new URL(everything!.url).host;
    expect(await form.textContent()).toContain(
      `Everything (${host}) asks: Please provide inputs for the following fields:`,
    );
    expect(await form.textContent()).toContain(
      'Only answer what you expect this server to ask. Never enter passwords or API keys here.',
    );
    // Each label stands above its field, as in the prompt form.
    for (const label of ['String (required)', 'String with email format', 'Integer']) {
      const text = await form.locator('label', { hasText: label }).first().boundingBox();
      const input = await form.getByLabel(label, { exact: true }).boundingBox();
      expect(text!.y + text!.height, label).toBeLessThanOrEqual(input!.y + 1);
    }
    await form.getByLabel('String with email format').fill('not an email');
    await form.getByRole('button', { name: 'Accept' }).click();
    await form.getByText('Enter an email address, like name@example.com.').waitFor();
    await form.getByText('Required.').waitFor(); // The name is required and empty.
    // The person is taken to the first field to fix: focused, in view with its "Required.".
    const name = form.getByLabel('String (required)');
    await expect.poll(() => name.evaluate((el) => el === document.activeElement), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => visibleShare(name), { timeout: 15_000 }).toBeGreaterThan(0.99);
    await expect.poll(() => visibleShare(form.getByText('Required.')), { timeout: 15_000 }).toBeGreaterThan(0.99);
    await page.screenshot({ path: `${SHOTS}/elicitation-form-errors.png` });
    expect(api!.pendingTurns).toBe(1); // The answer after the tool is not asked for yet: the call waits on the form.

    await form.getByLabel('String (required)').fill('Ada Lovelace');
    await form.getByLabel('String with email format').fill('ada@example.com');
    await form.getByLabel('Integer').fill('7');
    await form.getByRole('button', { name: 'Accept' }).click();
    await messages().getByText('Thanks for the details.').waitFor({ timeout: 30_000 });
    expect(await request('Everything').count()).toBe(0);
    const result = lastToolResult();
    expect(result).toContain('User provided the requested information');
    expect(result).toContain('- Name: Ada Lovelace');
    expect(result).toContain('- Email: ada@example.com');
    expect(result).toContain('- Favorite Integer: 7');
  });

  it('sends decline when the person declines', async () => {
    await newThread('Everything');
    await callTool('mcp__everything__trigger-elicitation-request', {}, 'Understood, no details.');
    await request('Everything').getByRole('button', { name: 'Decline' }).click({ timeout: 30_000 });
    await messages().getByText('Understood, no details.').waitFor({ timeout: 30_000 });
    expect(lastToolResult()).toContain('User declined to provide the requested information');
  });

  it("a server's question shows in its own thread only, and Stop takes it away (no answer goes to a stopped call)", async () => {
    await newThread('Everything');
    api!.script({ toolUses: [{ name: 'mcp__everything__trigger-elicitation-request', input: {} }] });
    await box().fill('Please ask me something');
    await box().press('Enter');
    await page.getByRole('button', { name: 'Allow once' }).click({ timeout: 30_000 });
    const form = request('Everything');
    await form.waitFor({ timeout: 30_000 });
    await openNewThread(page);
    await page.getByText('A server asks you something there.').waitFor();
    expect(await form.count()).toBe(0);
    await page.getByRole('button', { name: /^Open “/ }).click();
    await form.waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => form.count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => api!.pendingTurns).toBe(0);
  });

  it('a URL request shows its origin and opens the page only when the person clicks Open', async () => {
    await newThread('Everything');
    const target = `${app!.url}/authorize?step=1`;
    const pagesBefore = browser!.context.pages().length;
    await callTool('mcp__everything__trigger-url-elicitation', { url: target }, 'The page was opened.');
    const card = request('Everything');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.locator('code.origin').textContent()).toBe(new URL(target).origin);
    expect(browser!.context.pages().length).toBe(pagesBefore); // Nothing opened before the click.
    const [opened] = await Promise.all([
      browser!.context.waitForEvent('page'),
      card.getByRole('button', { name: `Open ${new URL(target).origin}` }).click(),
    ]);
    await expect.poll(() => opened.url()).toBe(target);
    await opened.close();
    await messages().getByText('The page was opened.').waitFor({ timeout: 30_000 });
    expect(lastToolResult()).toContain('accept');
  });

  it('declines a form outside the spec at once and says why in the chat', async () => {
    await newThread('Forms');
    await callTool('mcp__forms__bad-form', {}, 'The form was refused.', false);
    await messages().getByText('The form was refused.').waitFor({ timeout: 30_000 });
    const note = page.getByText(
      'Forms asked for input this app cannot show, so it was declined: it requires "phone", which it does not define.',
    );
    await note.waitFor();
    expect(lastToolResult()).toContain("The person's answer: decline");
    // The note belongs to the thread whose turn it came in: another thread does not show it, and it is there again on
    // the way back.
    const heading = await page.getByRole('heading', { level: 2 }).first().textContent();
    await openNewThread(page);
    await note.waitFor({ state: 'detached' });
    await page
      .getByRole('navigation', { name: 'Threads' })
      .getByRole('button', { name: heading!, exact: true })
      .click();
    await note.waitFor();
  });

  it('declines a form with a nested object too, saying why, and the server gets decline (not an error)', async () => {
    await newThread('Forms');
    await callTool('mcp__forms__nested-form', {}, 'The nested form was refused.', false);
    await messages().getByText('The nested form was refused.').waitFor({ timeout: 30_000 });
    await page
      .getByText(
        'Forms asked for input this app cannot show, so it was declined: the field "address" has the type "object", which the spec does not allow.',
      )
      .waitFor();
    expect(lastToolResult()).toContain("The person's answer: decline");
  });

  it('raised no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
