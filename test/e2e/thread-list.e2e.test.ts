/**
 * A heavy user's thread list in the production build: 400 threads, of which only the rows near the view are in the
 * page, each still read as "k of n"; the list scrolls to its oldest, the search filters it, Tab walks it, and Delete
 * then Undo of a thread far down brings focus back to that thread.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { openAppPage } from './app-page';
import { firstRunToNewThread } from './app-steps';
import { startAppServer, type AppServer } from './app-server';
import type { LaunchedChromium } from './browser';

const COUNT = 400;
let app: AppServer | undefined;
let api: FakeAnthropic | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;
let pageErrors: string[] = [];

const nav = () => page.getByRole('navigation', { name: 'Threads' });
const rows = () => nav().locator('li');
const topic = (n: number) => `Topic ${String(n).padStart(3, '0')}`;
/** The focused element's row: its place and the thread's title, as a screen reader hears them. */
const focusedRow = () =>
  page.evaluate(() => {
    const row = document.activeElement?.closest('li');
    return row
      ? `${row.querySelector('.thread-title')?.textContent} ${row.getAttribute('aria-posinset')} of ${row.getAttribute('aria-setsize')}`
      : `not in a row: ${document.activeElement?.tagName}`;
  });
/** The page has drawn what the last key or scroll did (the list reads its scroll in a frame). */
const nextFrames = () =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

describe('the thread list of a heavy user', () => {
  beforeAll(async () => {
    [api, app] = await Promise.all([startFakeAnthropic(), startAppServer()]);
    ({ browser, page, pageErrors } = await openAppPage(app.url, { viewport: { width: 1280, height: 800 } }));
    await firstRunToNewThread(page, 'sk-ant-thread-list', api.url);
    // Stored straight into the app's database, copies of the new thread's record (as years of use would leave them).
    await page.evaluate(async (count) => {
      const settle = <T>(request: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error ?? new Error('request failed'));
        });
      const db = await settle(indexedDB.open('mcp-agent'));
      const [record] = (await settle(db.transaction('threads').objectStore('threads').getAll())) as Record<
        string,
        unknown
      >[];
      const tx = db.transaction('threads', 'readwrite');
      const start = Date.now() - count * 60_000;
      tx.objectStore('threads').delete(record!.id as string); // Only the copies are listed.
      for (let n = 1; n <= count; n++)
        tx.objectStore('threads').put({
          ...record,
          id: `topic-${n}`,
          title: `Topic ${String(n).padStart(3, '0')}`,
          createdAt: start + n * 60_000,
          updatedAt: start + n * 60_000,
        });
      await new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error ?? new Error('write failed'));
      });
      db.close();
    }, COUNT);
    await page.reload();
    await nav()
      .getByRole('button', { name: topic(COUNT), exact: true })
      .waitFor({ timeout: 15_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await api?.stop();
  });

  it('has only the rows near the view in the page, each read with its place in the whole list', async () => {
    const total = COUNT;
    expect(await rows().count()).toBeLessThan(60);
    const first = rows().first();
    expect(await first.getAttribute('aria-posinset')).toBe('1');
    expect(await first.getAttribute('aria-setsize')).toBe(String(total));
    // Scrolled to its end, the oldest thread is there, the last of them all.
    await nav()
      .locator('.thread-scroller')
      .evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    const oldest = nav().getByRole('button', { name: topic(1), exact: true });
    await oldest.waitFor();
    expect(await oldest.isVisible()).toBe(true);
    expect(
      await rows()
        .filter({ has: page.getByRole('button', { name: topic(1), exact: true }) })
        .getAttribute('aria-posinset'),
    ).toBe(String(total));
    expect(await rows().count()).toBeLessThan(60);
    await nav()
      .locator('.thread-scroller')
      .evaluate((element) => element.scrollTo({ top: 0 }));
    await nav()
      .getByRole('button', { name: topic(COUNT), exact: true })
      .waitFor();
  });

  it('the search filters the whole list, far rows included', async () => {
    const search = nav().getByRole('searchbox', { name: 'Search threads' });
    await search.fill('topic 007');
    const found = nav().getByRole('button', { name: topic(7), exact: true });
    await found.waitFor();
    await expect.poll(() => rows().count()).toBe(1);
    expect(await rows().first().getAttribute('aria-setsize')).toBe('1');
    await search.fill('');
    await expect.poll(async () => (await rows().count()) > 1).toBe(true);
  });

  it('Tab walks on through the rows past those first in the page', async () => {
    await nav()
      .getByRole('button', { name: topic(COUNT), exact: true })
      .focus();
    expect(await focusedRow()).toBe(`${topic(COUNT)} 1 of ${COUNT}`);
    // Each row holds three buttons: the thread, Rename, Delete.
    for (let row = 2; row <= 60; row++) {
      for (let i = 0; i < 3; i++) {
        await page.keyboard.press('Tab');
        await nextFrames();
      }
      expect(await focusedRow()).toBe(`${topic(COUNT + 1 - row)} ${row} of ${COUNT}`);
    }
    const link = nav().getByRole('button', { name: topic(COUNT - 59), exact: true });
    expect(await link.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await link.isVisible()).toBe(true);
  });

  it('Delete far down the list puts focus on Undo, and Undo on the thread brought back', async () => {
    const name = topic(120);
    await nav()
      .locator('.thread-scroller')
      .evaluate((element) => element.scrollTo({ top: element.scrollHeight * 0.7 }));
    await nextFrames();
    await nav()
      .getByRole('button', { name: topic(120), exact: true })
      .waitFor();
    await nav()
      .getByRole('button', { name: `Delete thread ${name}` })
      .focus();
    await page.keyboard.press('Enter');
    const undo = page.getByRole('button', { name: 'Undo' });
    await expect.poll(() => undo.evaluate((element) => element === document.activeElement)).toBe(true);
    await nav()
      .locator('.thread-scroller')
      .evaluate((element) => element.scrollTo({ top: 0 }));
    await nextFrames();
    await page.keyboard.press('Enter');
    await expect.poll(focusedRow).toBe(`${name} ${COUNT + 1 - 120} of ${COUNT}`);
    expect(await nav().getByRole('button', { name, exact: true }).isVisible()).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
