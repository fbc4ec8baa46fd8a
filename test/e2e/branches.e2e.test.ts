/**
 * Edit, regenerate and branches in the production build (issue #22, item 2): a person's message edited in place starts
 * a new branch with a new answer, "Previous version" goes back to the first branch with its later messages, Regenerate
 * adds a version of the answer, and a reload shows the branch chosen last. The model reads the shown branch only.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic, RecordedRequest } from '../fakes/fake-anthropic';
import { startModelRig, type ModelRig } from './app-page';
import { firstRunToNewThread } from './app-steps';
import { axeViolations } from './axe-audit';
import type { AppServer } from './app-server';
import type { LaunchedChromium } from './browser';

const SHOTS = 'test-results/screenshots';
let rig: ModelRig | undefined;
let app: AppServer | undefined;
let api: FakeAnthropic | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;
let pageErrors: string[] = [];

const messages = () => page.getByRole('list', { name: 'Messages' });
const nav = () => page.getByRole('navigation', { name: 'Threads' });
/** The line under the open thread's title in the thread list: its date and preview. */
const listLine = () => nav().locator('button[aria-current="page"] .thread-meta');
const search = () => nav().getByRole('searchbox', { name: 'Search threads' });
const box = () => page.getByRole('textbox', { name: 'Message' });
const row = (text: string) => messages().getByRole('listitem').filter({ hasText: text });
const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` });
/** The texts the model read in a request, one per message. */
const readByModel = (request: RecordedRequest | undefined) =>
  (request?.body.messages ?? []).map((m) =>
    typeof m.content === 'string' ? m.content : m.content.map((b) => (b.type === 'text' ? b.text : b.type)).join(' '),
  );

describe('edit, regenerate and branches', () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    rig = await startModelRig({ viewport: { width: 1280, height: 800 } });
    ({ api, app, browser, page, pageErrors } = rig);
    await firstRunToNewThread(page, 'sk-ant-branches', api.url);
  });

  afterAll(async () => {
    await rig?.close();
  });

  it('edit → a new answer on a new branch → back to the first → regenerate → reload keeps the chosen branch', async () => {
    api!.script({ text: 'Paris: five days.' });
    await box().fill('Plan a trip to Paris');
    await box().press('Enter');
    await messages().getByText('Paris: five days.').waitFor({ timeout: 20_000 });

    // Edit in place: the message becomes a box with Cancel and Send edit; Cancel leaves it as it was.
    await row('Plan a trip to Paris').getByRole('button', { name: 'Edit' }).click();
    const editBox = page.getByRole('textbox', { name: 'Edit your message' });
    await expect(editBox.inputValue()).resolves.toBe('Plan a trip to Paris');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await editBox.waitFor({ state: 'detached' });
    await row('Plan a trip to Paris').getByRole('button', { name: 'Edit' }).click();
    api!.script({ text: 'Rome: four days.' });
    await editBox.fill('Plan a trip to Rome');
    await shot('branches-editing');
    expect(await axeViolations(page), 'axe violations while editing').toEqual([]);
    await page.getByRole('button', { name: 'Send edit' }).click();
    await messages().getByText('Rome: four days.').waitFor({ timeout: 20_000 });
    expect(readByModel(api!.requests.at(-1))).toEqual(['Plan a trip to Rome']);
    await expect(messages().getByText('Paris: five days.').count()).resolves.toBe(0);
    const edited = row('Plan a trip to Rome');
    await edited.getByText('2 of 2').waitFor();
    await expect(edited.getByRole('button', { name: 'Next version' }).isDisabled()).resolves.toBe(true);
    await shot('branches-edited');

    // Back to the first version: its answer comes with it, and nothing is asked of the model.
    const requests = api!.requests.length;
    await edited.getByRole('button', { name: 'Previous version' }).click();
    await messages().getByText('Paris: five days.').waitFor();
    await row('Plan a trip to Paris').getByText('1 of 2').waitFor();
    await expect(messages().getByText('Rome: four days.').count()).resolves.toBe(0);
    expect(api!.requests).toHaveLength(requests);

    // The thread list reads the branch shown: its line under the title, and Search threads (title, line, and the
    // messages of the shown branch) finds nothing of the hidden one.
    await expect.poll(() => listLine().textContent()).toMatch(/ · Paris: five days\.$/);
    await search().fill('Rome');
    await nav().getByText('No thread matches.').waitFor();
    await search().fill('five days');
    await expect.poll(() => listLine().textContent()).toMatch(/ · Paris: five days\.$/);
    // With the search still open, the other version shown: the list finds the thread by that version's message.
    await search().fill('trip to Rome');
    await nav().getByText('No thread matches.').waitFor();
    await row('Plan a trip to Paris').getByRole('button', { name: 'Next version' }).click();
    await expect.poll(() => listLine().textContent()).toMatch(/ · Rome: four days\.$/);
    await row('Plan a trip to Rome').getByRole('button', { name: 'Previous version' }).click();
    await nav().getByText('No thread matches.').waitFor();
    await search().fill('');
    await messages().getByText('Paris: five days.').waitFor();

    // Regenerate the answer: a second version of it, from the same message.
    api!.script({ text: 'Paris: a long weekend.' });
    // By keyboard: the button goes while the answer runs, and the focus goes to the message box, not to the page.
    await row('Paris: five days.').getByRole('button', { name: 'Regenerate' }).focus();
    await page.keyboard.press('Enter');
    await messages().getByText('Paris: a long weekend.').waitFor({ timeout: 20_000 });
    expect(await page.getByRole('textbox', { name: 'Message' }).evaluate((e) => e === document.activeElement)).toBe(
      true,
    );
    expect(readByModel(api!.requests.at(-1))).toEqual(['Plan a trip to Paris']);
    await row('Paris: a long weekend.').getByText('2 of 2').waitFor();
    await shot('branches-regenerated');
    expect(await axeViolations(page), 'axe violations with version switchers').toEqual([]);

    // A reload opens the thread on the branch chosen last.
    await page.reload();
    await messages().getByText('Paris: a long weekend.').waitFor({ timeout: 20_000 });
    await row('Plan a trip to Paris').getByText('1 of 2').waitFor();
    await expect(messages().getByText('Paris: five days.').count()).resolves.toBe(0);
    await expect.poll(() => listLine().textContent()).toMatch(/ · Paris: a long weekend\.$/);
    // The first answer is a click away, with the keyboard too.
    await row('Paris: a long weekend.').getByRole('button', { name: 'Previous version' }).focus();
    await page.keyboard.press('Enter');
    await messages().getByText('Paris: five days.').waitFor();
    await row('Paris: five days.').getByText('1 of 2').waitFor();
    // The focus stays on the switcher: the previous arrow is disabled now, so it moves to Next version.
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    await expect.poll(focused).toBe('Next version');
    await page.keyboard.press('Enter');
    await row('Paris: a long weekend.').getByText('2 of 2').waitFor();
    await expect.poll(focused).toBe('Previous version');
    await page.keyboard.press('Enter'); // back to the first version, as the next tests expect
    await row('Paris: five days.').getByText('1 of 2').waitFor();
    await expect.poll(focused).toBe('Next version');
    // Reloaded on that choice, the list reads its line, not the answer made last.
    await page.reload();
    await messages().getByText('Paris: five days.').waitFor({ timeout: 20_000 });
    await expect.poll(() => listLine().textContent()).toMatch(/ · Paris: five days\.$/);
    await search().fill('long weekend');
    await nav().getByText('No thread matches.').waitFor();
    await search().fill('');
    await shot('branches-after-reload');
    expect(pageErrors).toEqual([]);
  });

  it('another tab shows a new version as it is made, and follows the branch chosen', async () => {
    const other = await browser!.context.newPage();
    try {
      await other.goto(app!.url);
      const otherMessages = other.getByRole('list', { name: 'Messages' });
      await otherMessages.getByText('Paris: five days.').waitFor({ timeout: 20_000 });
      api!.script({ text: 'Paris: three days.' });
      await row('Paris: five days.').getByRole('button', { name: 'Regenerate' }).click();
      await messages().getByText('Paris: three days.').waitFor({ timeout: 20_000 });
      const otherRow = otherMessages.getByRole('listitem').filter({ hasText: 'Paris: three days.' });
      await otherRow.getByText('3 of 3').waitFor({ timeout: 20_000 });
      await row('Paris: three days.').getByRole('button', { name: 'Previous version' }).click();
      await otherMessages.getByText('Paris: a long weekend.').waitFor({ timeout: 20_000 });
    } finally {
      await other.close();
    }
  });

  it('at phone width the switcher, Edit and Regenerate fit beside the message', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      const answer = row('Paris: a long weekend.');
      await answer.getByText('2 of 3').waitFor();
      for (const control of [
        answer.getByRole('button', { name: 'Regenerate' }),
        answer.getByRole('button', { name: 'Next version' }),
        row('Plan a trip to Paris').getByRole('button', { name: 'Edit' }),
      ]) {
        const box = await control.boundingBox();
        expect(box).not.toBeNull();
        expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      }
      await shot('branches-phone');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('Edit, Regenerate and the version arrows are disabled while a turn runs', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    api!.script(async () => {
      await held;
      return { text: 'Slow answer.' };
    });
    await box().fill('Take your time');
    await box().press('Enter');
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    await expect(row('Plan a trip to Paris').getByRole('button', { name: 'Edit' }).isDisabled()).resolves.toBe(true);
    await expect(
      row('Paris: a long weekend.').getByRole('button', { name: 'Next version' }).isDisabled(),
    ).resolves.toBe(true);
    release();
    await messages().getByText('Slow answer.').waitFor({ timeout: 20_000 });
    await expect(row('Slow answer.').getByRole('button', { name: 'Regenerate' }).isDisabled()).resolves.toBe(false);
  });

  it('Stop pressed from the keyboard leaves the focus in the message box, not on the page', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    api!.script(async () => {
      await held;
      return { text: 'Never shown.' };
    });
    await box().fill('Stop me');
    await box().press('Enter');
    // Stopped once the request is with the model: stopped before, its scripted answer would be the next request's.
    await expect.poll(() => api!.pendingTurns).toBe(0);
    const stop = page.getByRole('button', { name: 'Stop' });
    await stop.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Send' }).waitFor();
    await expect.poll(() => box().evaluate((element) => element === document.activeElement)).toBe(true);
    release();
  });

  it('by keyboard, Escape or Cancel in the editor gives the focus back to Edit, and Send edit to the message box', async () => {
    const isFocused = (locator: ReturnType<Page['getByRole']>) =>
      locator.evaluate((element) => element === document.activeElement);
    const edit = () => row('Stop me').getByRole('button', { name: 'Edit' });
    const editBox = page.getByRole('textbox', { name: 'Edit your message' });
    await edit().focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(editBox)).toBe(true);
    await page.keyboard.press('Escape');
    await editBox.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(edit())).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Cancel' }).focus();
    await page.keyboard.press('Enter');
    await editBox.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(edit())).toBe(true);
    await page.keyboard.press('Enter');
    api!.script({ text: 'Stopped for good.' });
    await editBox.fill('Stop me, edited');
    await page.keyboard.press('Enter');
    await messages().getByText('Stopped for good.').waitFor({ timeout: 20_000 });
    await expect.poll(() => isFocused(box())).toBe(true);
  });
});
