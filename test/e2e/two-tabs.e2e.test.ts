/**
 * Two tabs on one thread in the production build (trial: the second tab showed the first tab's call, waiting for
 * approval, as "not run", with Retry and Edit offered): the second tab says the answer is written in the other tab and
 * waits for approval there, starts nothing of its own meanwhile, and is back to normal when that answer ends, or when
 * the other tab closes mid-turn (then it asks about the call itself, as a reload does).
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import { startEverythingRig, type EverythingRig, saveKeyAndBaseUrl } from './app-page';
import { addServer, openNewThread } from './app-steps';

const SHOTS = 'test-results/screenshots';
const WAIT = { timeout: 15_000 };
let rig: EverythingRig | undefined;
let api: FakeAnthropic;
let page: Page;
let pageErrors: string[] = [];

const messagesOf = (tab: Page) => tab.getByRole('list', { name: 'Messages' });
const echoCardOf = (tab: Page) => messagesOf(tab).locator('details.tool-card', { hasText: 'echo' }).last();
const otherTabNote = (tab: Page) =>
  tab.getByRole('status').filter({ hasText: 'Claude is answering in this thread in another tab.' });

/** In `tab`, a new thread with the Tools server on, whose message asks for an echo (the model calls it). */
async function askForEcho(tab: Page, id: string, answer: string): Promise<void> {
  await openNewThread(tab);
  await tab.getByRole('switch', { name: 'Tools', exact: true }).check();
  api.script({ toolUses: [{ id, name: 'mcp__tools__echo', input: { message: 'across tabs' } }] }, { text: answer });
  const box = tab.getByRole('textbox', { name: 'Message' });
  await box.fill('Echo across tabs');
  await box.press('Enter');
  await tab.getByRole('region', { name: 'Approve echo' }).waitFor(WAIT);
}

/** `tab` opened at the thread `other` shows, as a person opens a second tab at the same address. */
async function openAt(tab: Page, other: Page): Promise<void> {
  await tab.goto(other.url());
  await tab.getByRole('heading', { name: 'Echo across tabs', exact: true }).waitFor(WAIT);
}

describe('two tabs on one thread', () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    rig = await startEverythingRig({ viewport: { width: 1280, height: 800 } });
    ({ api, page, pageErrors } = rig);
    await saveKeyAndBaseUrl(page, 'sk-ant-two-tabs', api.url);
    await page.getByRole('button', { name: 'Settings' }).click();
    await addServer(page, 'Tools', rig.everything.url);
  });

  afterAll(async () => {
    await rig?.close();
  });

  it('the second tab shows the call waiting for approval in the first, offers no second turn, and follows it to the answer', async () => {
    await askForEcho(page, 'toolu_tabs', 'The echo came back across tabs.');
    const second = await page.context().newPage();
    try {
      await openAt(second, page);
      const note = otherTabNote(second);
      await note.waitFor(WAIT);
      await expect.poll(() => note.textContent(), WAIT).toContain('It is waiting for your approval in that tab');
      const threads = second.getByRole('navigation', { name: 'Threads' });
      expect(await threads.locator('li', { hasText: 'Answering…' }).textContent()).toContain('Echo across tabs');
      await expect
        .poll(() => echoCardOf(second).locator('summary').textContent(), WAIT)
        .toContain('waiting for approval in another tab');
      expect(await echoCardOf(second).locator('summary').textContent()).not.toContain('not run');
      // The approval is answered where the turn runs; nothing here starts a second turn meanwhile.
      expect(await second.getByRole('region', { name: 'Approve echo' }).count()).toBe(0);
      expect(await second.getByRole('button', { name: 'Stop', exact: true }).count()).toBe(0);
      expect(await second.getByRole('button', { name: 'Retry' }).count()).toBe(0);
      const edit = messagesOf(second).getByRole('button', { name: 'Edit' });
      expect(await edit.isDisabled()).toBe(true);
      for (const regenerate of await messagesOf(second).getByRole('button', { name: 'Regenerate' }).all())
        expect(await regenerate.isDisabled()).toBe(true);
      await second.screenshot({ path: `${SHOTS}/two-tabs-waiting-in-other-tab.png` });

      await page.getByRole('region', { name: 'Approve echo' }).getByRole('button', { name: 'Allow once' }).click();
      await messagesOf(second).getByText('The echo came back across tabs.').waitFor(WAIT);
      await note.waitFor({ state: 'detached', ...WAIT });
      await expect.poll(() => echoCardOf(second).locator('summary').textContent(), WAIT).toMatch(/echo\s*done/);
      await expect.poll(() => edit.isDisabled(), WAIT).toBe(false);
      expect(api.requests.filter((r) => JSON.stringify(r.body).includes('Echo across tabs'))).toHaveLength(2);
    } finally {
      await second.close();
    }
    expect(pageErrors).toEqual([]);
  });

  it('a tab closed while its turn waits for approval frees the other tab, which asks about the call itself', async () => {
    const running = await page.context().newPage();
    await running.goto(page.url());
    await askForEcho(running, 'toolu_closed', 'Echoed after the other tab closed.');
    await openAt(page, running);
    await otherTabNote(page).waitFor(WAIT);
    await running.close(); // The browser gives its turn lock back.
    const approval = page.getByRole('region', { name: 'Approve echo' });
    await approval.waitFor(WAIT);
    await otherTabNote(page).waitFor({ state: 'detached', ...WAIT });
    expect(await echoCardOf(page).locator('summary').textContent()).toContain('waiting for your approval');
    await approval.getByRole('button', { name: 'Allow once' }).click();
    await messagesOf(page).getByText('Echoed after the other tab closed.').waitFor(WAIT);
    expect(await echoCardOf(page).locator('summary').textContent()).toMatch(/echo\s*done/);
    expect(pageErrors).toEqual([]);
  });
});
