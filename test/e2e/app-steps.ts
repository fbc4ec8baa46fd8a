/** Steps a person takes in the app that many browser suites share: the first run, a new thread, adding a server. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { saveKeyAndBaseUrl } from './app-page';

/** Opens a new empty thread from the sidebar (its first "New thread" button) and waits until it shows. */
export async function openNewThread(page: Page): Promise<void> {
  // The first is the sidebar's button; a thread not yet titled is named "New thread" too.
  await page.getByRole('button', { name: 'New thread', exact: true }).first().click();
  // Until the new thread shows, the switches on screen are the previous thread's.
  await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
}

/** Opens a new empty thread and checks the switch of the server `name` in it. */
export async function newThreadWithServer(page: Page, name: string): Promise<void> {
  await openNewThread(page);
  await page.getByRole('switch', { name, exact: true }).check();
}

/** Switches the server `name` on in the open thread, and waits until its switch shows it on. */
export async function switchServerOn(page: Page, name: string): Promise<void> {
  // The switch follows the stored state, which a busy page may show a moment after the click.
  const toggle = page.getByRole('switch', { name, exact: true });
  if (!(await toggle.isChecked())) await toggle.click();
  await expect.poll(() => toggle.isChecked(), { timeout: 15_000 }).toBe(true);
}

/** The first run up to a first thread: key and base URL saved, Settings closed, and a new empty thread open. */
export async function firstRunToNewThread(page: Page, apiKey: string, baseUrl: string): Promise<void> {
  await saveKeyAndBaseUrl(page, apiKey, baseUrl);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await openNewThread(page);
}

export interface AddServerOptions {
  /** How long the server may take to show "Connected" (default 15 s). */
  readonly timeout?: number;
  /** Leave the Servers panel open afterwards (default: closed again). */
  readonly keepOpen?: boolean;
}

/** Adds a server by name and URL in the Servers panel (opened for it) and waits for "Connected" on its row. */
export async function addServer(page: Page, name: string, url: string, options: AddServerOptions = {}): Promise<void> {
  const serversButton = page.getByRole('button', { name: 'Servers', exact: true });
  await serversButton.click();
  await page.getByRole('textbox', { name: 'Server name' }).fill(name);
  await page.getByRole('textbox', { name: 'Server URL' }).fill(url);
  await page.getByRole('button', { name: 'Add server' }).click();
  await page
    .getByRole('listitem', { name })
    .getByText('Connected', { exact: true })
    .waitFor({ timeout: options.timeout ?? 15_000 });
  if (!options.keepOpen) await serversButton.click();
}

/** In the open Servers panel: adds a server signed in with a bearer token, and waits until its row says "Connected". */
export async function addBearerServer(page: Page, name: string, url: string, token: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Server name' }).fill(name);
  await page.getByRole('textbox', { name: 'Server URL' }).fill(url);
  await page.getByRole('combobox', { name: 'Authentication' }).selectOption('bearer');
  await page.getByLabel('Bearer token', { exact: true }).fill(token);
  await page.getByRole('button', { name: 'Add server' }).click();
  await expect.poll(() => page.getByRole('listitem', { name }).textContent(), { timeout: 15_000 }).toMatch(/Connected/);
}

/** Opens the Servers panel (unless open) and waits for its heading. */
export async function openServersPanel(page: Page): Promise<void> {
  if ((await page.getByRole('button', { name: 'Servers' }).getAttribute('aria-pressed')) !== 'true')
    await page.getByRole('button', { name: 'Servers' }).click();
  await page.getByRole('heading', { name: 'Servers' }).waitFor();
}

/** Closes the Servers panel if it is open. */
export async function closeServersPanel(page: Page): Promise<void> {
  if ((await page.getByRole('button', { name: 'Servers' }).getAttribute('aria-pressed')) === 'true')
    await page.getByRole('button', { name: 'Servers' }).click();
}
