/**
 * Issue #15, items 3, 5, 6: a hostile MCP server's schema regex cannot freeze the page, its 50 images do not all
 * reach the model, and its 5.4 MB tool description is cut at the catalog.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type RecordedRequest } from '../../fakes/fake-anthropic';
import {
  CATASTROPHIC_ARGUMENT,
  startHostileLimitsServer,
  type HostileLimitsServer,
} from '../../fixtures/hostile/limits-server';
import { startAppServer, type AppServer } from '../app-server';
import { openAppPage, type AppPage } from '../app-page';
import { addServer, openNewThread } from '../app-steps';

let api: FakeAnthropic | undefined;
let hostile: HostileLimitsServer | undefined;
let app: AppServer | undefined;
let opened: AppPage | undefined;
let page: Page;

/** Every image block of a request, inside tool results or not, and the placeholders that replaced older ones. */
function imagesOf(request: RecordedRequest): { images: number; placeholders: number } {
  type Block = { type?: string; text?: string; content?: unknown };
  const messages = request.body.messages as unknown as { content: string | Block[] }[];
  const blocks = messages.flatMap((m) =>
    typeof m.content === 'string'
      ? []
      : m.content.flatMap((b) => (b.type === 'tool_result' && Array.isArray(b.content) ? (b.content as Block[]) : [b])),
  );
  return {
    images: blocks.filter((b) => b.type === 'image').length,
    placeholders: blocks.filter((b) => b.type === 'text' && b.text?.startsWith('[An older image was left out')).length,
  };
}

/** The thread's messages (the thread list also shows the latest answer's text, under the thread's title). */
const messages = () => page.getByRole('list', { name: 'Messages' });

async function send(text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
}

describe('a hostile MCP server meets the limits', () => {
  beforeAll(async () => {
    [api, hostile, app] = await Promise.all([startFakeAnthropic(), startHostileLimitsServer(), startAppServer()]);
    opened = await openAppPage(app.url);
    page = opened.page;
    await page.getByLabel('API key').fill('sk-ant-limits');
    await page.getByRole('textbox', { name: 'Base URL' }).fill(api.url);
    await page.getByRole('button', { name: 'Save' }).click();
    await addServer(page, 'Hostile', hostile.url, { timeout: 30_000 });
    await openNewThread(page);
    await page.getByRole('switch', { name: 'Hostile', exact: true }).check();
  });

  afterAll(async () => {
    await opened?.browser.close();
    await app?.close();
    await api?.stop();
    await hostile?.stop();
  });

  it('cuts a 5.4 MB tool description at the catalog and says so in the server view', async () => {
    api!.script({ text: 'Hello.' });
    await send('Hi');
    await messages().getByText('Hello.').waitFor({ timeout: 30_000 });
    const request = api!.requests.at(-1)!;
    const chatty = request.body.tools?.find((tool) => 'name' in tool && tool.name.endsWith('chatty'));
    expect(chatty).toBeDefined();
    expect(JSON.stringify(chatty).length).toBeLessThan(5_000);
    expect(JSON.stringify(request.body).length).toBeLessThan(50_000);

    await page.getByRole('button', { name: 'Servers' }).click();
    try {
      const server = page.getByRole('listitem', { name: 'Hostile' });
      await server.locator('summary', { hasText: 'Tools (' }).click();
      const notes = server.getByRole('list', { name: 'Notes on the tools of Hostile' });
      await notes.getByText('chatty: description cut from 5,400,000 to 4,000 characters').waitFor();
    } finally {
      await page.getByRole('button', { name: 'Servers' }).click();
    }
  });

  it('a catastrophic schema pattern does not freeze the page: the call is refused with the reason, unasked', async () => {
    api!.script(
      { toolUses: [{ name: 'mcp__hostile__find_words', input: { query: CATASTROPHIC_ARGUMENT } }] },
      { text: 'The search was refused.' },
    );
    await send('Find words');
    // Checked before the person is asked: a call the tool's schema refuses is never put to them.
    // A page stuck in the regex would neither finish the turn nor answer an evaluate.
    await messages().getByText('The search was refused.').waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => 6 * 7)).toBe(42);
    await page.getByRole('list', { name: 'Messages' }).locator('summary', { hasText: 'find_words' }).click();
    await page.getByText(/Invalid arguments for "find_words": .*query: String does not match pattern\./).waitFor();
    expect(hostile!.calls).not.toContain('find_words');
    expect(await page.getByRole('button', { name: 'Allow once' }).count()).toBe(0);
  });

  it('keeps 10 of 50 images in a result, says so, and re-sends only the newest 20 to the model', async () => {
    api!.script({ toolUses: [{ name: 'mcp__hostile__screenshots', input: {} }] }, { text: 'First set.' });
    await send('Screenshots please');
    await page.getByRole('button', { name: 'Allow for this thread' }).click({ timeout: 30_000 });
    await messages().getByText('First set.').waitFor({ timeout: 30_000 });
    const card = page.getByRole('list', { name: 'Messages' }).locator('details', { hasText: 'screenshots' }).first();
    await card.locator('summary').click();
    await card
      .getByText('[40 of 50 images left out: a tool result keeps at most 10 images and 2 MB of image data.]')
      .waitFor();
    // The images kept show under the card (a finished call's images are not folded away with its details).
    expect(await messages().getByRole('img', { name: 'Image returned by screenshots' }).count()).toBe(10);
    expect(imagesOf(api!.requests.at(-1)!)).toEqual({ images: 10, placeholders: 0 });

    api!.script(
      { toolUses: [{ name: 'mcp__hostile__screenshots', input: {} }] },
      { toolUses: [{ name: 'mcp__hostile__screenshots', input: {} }] },
      { text: 'Three sets.' },
    );
    await send('Two more sets');
    await messages().getByText('Three sets.').waitFor({ timeout: 60_000 });
    expect(imagesOf(api!.requests.at(-1)!)).toEqual({ images: 20, placeholders: 10 });
    expect(hostile!.calls.filter((name) => name === 'screenshots')).toHaveLength(3);
  });
});
