/**
 * Threads backup in the production build: a thread with an image and an edited message (two branches) in one Chromium
 * profile, "Export all threads" saves it; a fresh profile's "Import threads" brings it back with both versions and the
 * image, also when it names a server this browser does not have.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import { samplePng } from '../fixtures/sample-files';
import { openAppPage, saveKeyAndBaseUrl, startModelRig, type AppPage, type ModelRig } from './app-page';
import { firstRunToNewThread } from './app-steps';

let rig: ModelRig | undefined;
let fresh: AppPage | undefined;
let api: FakeAnthropic | undefined;
let backup: string;

const messagesOf = (page: Page) => page.getByRole('list', { name: 'Messages' });
const rowOf = (page: Page, text: string) => messagesOf(page).getByRole('listitem').filter({ hasText: text });

describe('threads backup', () => {
  beforeAll(async () => {
    rig = await startModelRig({ viewport: { width: 1280, height: 860 } });
    api = rig.api;
    await firstRunToNewThread(rig.page, 'sk-ant-backup-e2e', api.url);
  });

  afterAll(async () => {
    await fresh?.browser.close();
    await rig?.close();
  });

  it('exports a thread with an image and an edited message as one file', async () => {
    const { page } = rig!;
    const box = page.getByRole('textbox', { name: 'Message' });
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Attach files' }).click(),
    ]);
    await chooser.setFiles({ name: 'map.png', mimeType: 'image/png', buffer: samplePng(40, 20) });
    await page.getByRole('list', { name: 'Attachments to send' }).getByText('map.png').waitFor();
    api!.script({ text: 'Paris: five days.' });
    await box.fill('Plan a trip to Paris');
    await box.press('Enter');
    await messagesOf(page).getByText('Paris: five days.').waitFor({ timeout: 20_000 });
    await rowOf(page, 'Plan a trip to Paris').getByRole('button', { name: 'Edit' }).click();
    api!.script({ text: 'Rome: four days.' });
    await page.getByRole('textbox', { name: 'Edit your message' }).fill('Plan a trip to Rome');
    await page.getByRole('button', { name: 'Send edit' }).click();
    await messagesOf(page).getByText('Rome: four days.').waitFor({ timeout: 20_000 });
    await rowOf(page, 'Plan a trip to Rome').getByText('2 of 2').waitFor();

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export all threads' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^mcp-agent-threads-\d{4}-\d{2}-\d{2}\.json$/);
    backup = await readFile(await download.path(), 'utf8');
    await page.getByText('Exported 1 thread.').waitFor();
    expect(backup).not.toContain('sk-ant-backup-e2e');
    const file = JSON.parse(backup) as { format: string; threads: { messages: unknown[]; attachments: unknown[] }[] };
    expect(file.format).toBe('mcp-agent-threads');
    expect(file.threads.map((t) => [t.messages.length, t.attachments.length])).toEqual([[4, 1]]);
    expect(rig!.pageErrors).toEqual([]);
  });

  it('a fresh profile imports it: the thread opens with both versions and the image; a second import adds nothing', async () => {
    fresh = await openAppPage(rig!.app.url, { viewport: { width: 1280, height: 860 } });
    const { page } = fresh;
    await saveKeyAndBaseUrl(page, 'sk-ant-backup-e2e-2', api!.url);
    // The thread names a server this browser does not have: left off, the report says so, and nothing breaks.
    const data = JSON.parse(backup) as { threads: { thread: { enabledServerIds: string[] } }[] };
    data.threads[0]!.thread.enabledServerIds = ['weather-gone'];
    const chosen = { name: 'backup.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(data)) };
    const report = page.getByRole('region', { name: 'Threads import report' });

    await page.getByLabel('Import threads').focus(); // Chosen from the keyboard.
    await page.getByLabel('Import threads').setInputFiles(chosen);
    await report
      .getByRole('list', { name: 'Imported', exact: true })
      .getByText(/: 4 messages, 1 attachment; servers not in this profile left off \(weather-gone\)/)
      .waitFor();
    // The report takes the focus the disabled file picker dropped.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Threads import report');
    // Again: "already here", nothing added.
    await page.getByLabel('Import threads').setInputFiles(chosen);
    await report.getByRole('list', { name: 'Not imported' }).getByText('already here').waitFor();
    expect(await report.getByRole('list', { name: 'Imported', exact: true }).count()).toBe(0);
    // A file of another kind is refused with one line.
    await page.getByLabel('Import threads').setInputFiles({
      name: 'package.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"name":"x","version":"1.0.0"}'),
    });
    await page
      .getByRole('alert', { name: 'Threads import report' })
      .getByText(/not a threads backup of MCP Agent/)
      .waitFor();

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const listed = page.getByRole('navigation', { name: 'Threads' }).locator('.thread-link');
    await expect.poll(() => listed.count(), { timeout: 15_000 }).toBe(1);
    await listed.first().click();
    const edited = rowOf(page, 'Plan a trip to Rome');
    await edited.getByText('2 of 2').waitFor({ timeout: 15_000 });
    await messagesOf(page).getByText('Rome: four days.').waitFor();
    await edited.getByRole('button', { name: 'Previous version' }).click();
    await messagesOf(page).getByText('Paris: five days.').waitFor();
    const thumbnail = rowOf(page, 'Plan a trip to Paris').locator('img');
    await expect
      .poll(() => thumbnail.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: 15_000 })
      .toBe(40);
    expect(fresh.pageErrors).toEqual([]);
  });
});
