/**
 * Many servers behind one plain-http address (a local gateway, the local relay): Chromium keeps at most 6 connections
 * to one http:// host and port, and each server's stream holds one. The app holds at most 3 such streams per address
 * across its tabs, so every server connects and its calls go through; the others say their changes are not live.
 * Real Chromium, the production build and one SDK test server on 127.0.0.1 serving every "server" of the test.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_LIVE_UPDATES } from '../../src/ui/components/server-status';
import { startTestMcpServer, type TestMcpServer } from '../fixtures/test-mcp-server';
import { startModelRig, type ModelRig } from './app-page';
import { addServer, firstRunToNewThread, newThreadWithServer, openServersPanel } from './app-steps';

const SHOTS = 'test-results/screenshots';
const NAMES = ['Gate1', 'Gate2', 'Gate3', 'Gate4', 'Gate5', 'Gate6', 'Gate7'];
let rig: ModelRig | undefined;
let gateway: TestMcpServer | undefined;
let page: Page;

const messages = (on: Page) => on.getByRole('list', { name: 'Messages' });
const notes = (on: Page) => on.getByText(NO_LIVE_UPDATES, { exact: true });

/** Asks for gate7's add tool in a new thread with Gate7 on, allows the call and waits for the model's answer. */
async function addThroughGate7(on: Page, a: number, b: number): Promise<void> {
  rig!.api.script({ toolUses: [{ name: 'mcp__gate7__add', input: { a, b } }] }, { text: `Gate7 added ${a} and ${b}.` });
  await newThreadWithServer(on, 'Gate7');
  const box = on.getByRole('textbox', { name: 'Message' });
  await box.fill(`Add ${a} and ${b} please`);
  await box.press('Enter');
  await on.getByRole('button', { name: 'Allow once' }).click({ timeout: 15_000 });
  await messages(on).getByText(`Gate7 added ${a} and ${b}.`).waitFor({ timeout: 15_000 });
  expect(
    await messages(on)
      .getByText(`${a}+${b}=${a + b}`)
      .count(),
  ).toBeGreaterThan(0);
}

describe('servers sharing one http:// address', () => {
  let pageErrors: string[] = [];

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    [gateway, rig] = await Promise.all([startTestMcpServer(), startModelRig()]);
    ({ page, pageErrors } = rig);
    await firstRunToNewThread(page, 'sk-ant-shared-address', rig.api.url);
  });

  afterAll(async () => {
    await rig?.close();
    await gateway?.stop();
  });

  it('seven servers on one address all connect, four say their changes are not live, and calls go through', async () => {
    for (const name of NAMES) await addServer(page, name, `${gateway!.url}?gate=${name}`);
    await expect.poll(() => gateway!.openStreams).toBe(3);
    await openServersPanel(page);
    await expect.poll(() => notes(page).count()).toBe(4);
    await notes(page).first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/shared-address-servers.png` });
    await page.getByRole('button', { name: 'Servers', exact: true }).click();

    await addThroughGate7(page, 2, 3);
    // Seven servers do not fit the header's lines: the legend counts them and the box scrolls.
    const line = page.getByRole('group', { name: 'Servers in this thread' });
    expect(await line.locator('legend').textContent()).toBe('Servers in this thread: 2 of 7 on');
    await page.screenshot({ path: `${SHOTS}/shared-address-thread.png` });
    expect(pageErrors).toEqual([]);
  });

  it("a second tab's servers connect without streams of their own, and both tabs' calls go through", async () => {
    const second = await rig!.browser.context.newPage();
    await second.goto(rig!.app.url);
    await openServersPanel(second);
    for (const name of NAMES) {
      const row = second.getByRole('listitem', { name, exact: true });
      if (!(await row.getByText('Connected', { exact: true }).isVisible()))
        await row.getByRole('button', { name: `Connect ${name}` }).click();
      await row.getByText('Connected', { exact: true }).waitFor({ timeout: 15_000 });
    }
    // The first tab holds the address's 3 streams: none is left for this tab.
    await expect.poll(() => notes(second).count()).toBe(NAMES.length);
    await expect.poll(() => gateway!.openStreams).toBe(3);
    await second.getByRole('button', { name: 'Servers', exact: true }).click();

    await addThroughGate7(second, 4, 5);
    await addThroughGate7(page, 6, 7);
    await second.close();
    expect(pageErrors).toEqual([]);
  });
});
