/**
 * A tool of a server the deployer provides, switched off by the person in the servers manager: still off after a
 * reload and left out of the next model call, on again when switched back. The production build with an app
 * config naming server-everything, the fake Messages API, both on 127.0.0.1, in real Chromium.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import { startServerEverything, type ServerEverything } from '../fixtures/server-everything';
import { appServersConfig, saveKeyAndBaseUrl, startModelRig, type ModelRig } from './app-page';
import { closeServersPanel, openServersPanel } from './app-steps';
import { dumpIndexedDb } from './idb-dump';

const SHOTS = 'test-results/screenshots';
let everything: ServerEverything | undefined;
let rig: ModelRig | undefined;
let api: FakeAnthropic | undefined;
let page: Page;
let pageErrors: string[] = [];

const company = () => page.getByRole('listitem', { name: 'Company tools', exact: true });
const tools = () => company().getByRole('list', { name: 'Tools of Company tools' });
const echoSwitch = () => tools().getByRole('switch', { name: 'echo', exact: true });
const messages = () => page.getByRole('list', { name: 'Messages' });

const openServers = () => openServersPanel(page);

const closeServers = () => closeServersPanel(page);

/** Opens the app server's tool list (its last known tools, once listed). */
async function openCompanyTools(): Promise<void> {
  await company().locator('summary', { hasText: 'Tools' }).waitFor({ timeout: 15_000 });
  if ((await company().locator('details.server-tools').getAttribute('open')) === null)
    await company().locator('summary', { hasText: 'Tools' }).click();
  await echoSwitch().waitFor();
}

/** Sends a message in a new thread with the app server on, and returns the tool names of the model call it made. */
async function toolsOfNextCall(text: string): Promise<string[]> {
  await closeServers();
  await page.getByRole('button', { name: 'New thread', exact: true }).first().click();
  await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
  const threadServers = page.getByRole('group', { name: 'Servers in this thread' });
  await threadServers.getByRole('switch', { name: 'Company tools', exact: true }).check();
  const before = api!.requests.length;
  api!.script({ text: `Answer to: ${text}` });
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  await messages().getByText(`Answer to: ${text}`).waitFor({ timeout: 15_000 });
  expect(api!.requests.length).toBe(before + 1);
  return api!.requests.at(-1)!.toolNames;
}

describe("the person's own switches for an app server's tools", () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    everything = await startServerEverything({ mode: 'streamableHttp' });
    // Every tool goes with each call, so a request shows all the model is offered.
    const appConfig = appServersConfig([{ id: 'company', name: 'Company tools', url: everything.url }]);
    rig = await startModelRig({ appConfig, viewport: { width: 1280, height: 900 } });
    ({ api, page, pageErrors } = rig);
    await saveKeyAndBaseUrl(page, 'sk-ant-app-tools-e2e', api.url);
  });

  afterAll(async () => {
    await rig?.close();
    await everything?.stop();
  });

  it('the model gets every tool of the app server to begin with', async () => {
    const offered = await toolsOfNextCall('What can you do?');
    expect(offered).toContain('mcp__company__echo');
    expect(offered).toContain('mcp__company__get-sum');
  });

  it('switches a tool off "for you" while the address and sign-in stay read-only', async () => {
    await openServers();
    await expect.poll(() => company().textContent(), { timeout: 15_000 }).toMatch(/Connected\d+ tools/);
    await openCompanyTools();
    expect(await company().textContent()).toContain(
      'For you: these switches and descriptions apply only to your profile',
    );
    expect(await company().getByRole('button', { name: 'Edit Company tools' }).count()).toBe(0);
    expect(await company().getByRole('button', { name: 'Remove Company tools' }).count()).toBe(0);
    expect(await echoSwitch().isDisabled()).toBe(false);
    await echoSwitch().click(); // the switch follows the stored state
    await expect.poll(() => echoSwitch().isChecked()).toBe(false);
    expect(
      await company()
        .locator('summary', { hasText: /^Tools \(/ })
        .textContent(),
    ).toMatch(/Tools \(\d+ of \d+ on for you\)/);
    await company().screenshot({ path: `${SHOTS}/servers-app-server-tools-desktop.png` });
    // Kept in the profile, not as a server of the person's own.
    const dump = JSON.parse(await dumpIndexedDb(page)) as Record<
      string,
      { value: { appServerToolOverrides?: unknown; id?: string } }[]
    >;
    expect(dump['mcp-agent/profiles']?.map((record) => record.value.appServerToolOverrides)).toEqual([
      { company: { echo: { enabled: false } } },
    ]);
    expect(dump['mcp-agent/servers']?.map((record) => record.value.id)).not.toContain('company');
  });

  it('after a reload it is still off, and the next model call does not carry it', async () => {
    await page.reload();
    await openServers();
    await openCompanyTools();
    expect(await echoSwitch().isChecked()).toBe(false);
    const offered = await toolsOfNextCall('And now?');
    expect(offered).not.toContain('mcp__company__echo');
    expect(offered).toContain('mcp__company__get-sum');
  });

  it('switched on again, the next model call carries it', async () => {
    await openServers();
    await openCompanyTools();
    await echoSwitch().click();
    await expect.poll(() => echoSwitch().isChecked()).toBe(true);
    expect(await toolsOfNextCall('Once more?')).toContain('mcp__company__echo');
  });

  it('raised no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
