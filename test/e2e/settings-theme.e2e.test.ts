/**
 * The theme in the production build: Dark applied at once and after a reload, and a reload painted in the chosen
 * theme from its first frame, before storage is read, whatever the system prefers.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THEME_MIRROR_KEY } from '../../src/platform/theme-mirror';
import { saveKeyAndBaseUrl, startModelRig, type ModelRig } from './app-page';
import type { AppServer } from './app-server';
import type { LaunchedChromium } from './browser';
import { FRAME_BACKGROUNDS, holdIndexedDbOpen, recordFrameBackgrounds } from './init-scripts';
import { openSettingsAdvanced, pageTheme } from './settings-steps';

const SHOTS = 'test-results/screenshots';
const DARK_BG = 'rgb(23, 23, 28)';
const LIGHT_BG = 'rgb(247, 247, 248)';
/** How long a reload's indexedDB.open is held back, so that a frame painted meanwhile cannot know the profile. */
const HOLD_MS = 1500;
let rig: ModelRig | undefined;
let app: AppServer | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
const openSettings = () => openSettingsAdvanced(page);
const themeOf = () => pageTheme(page);

describe('the theme', () => {
  let pageErrors: string[] = [];

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    rig = await startModelRig({ viewport: { width: 1280, height: 900 } });
    ({ app, browser, page, pageErrors } = rig);
    await saveKeyAndBaseUrl(page, 'sk-ant-theme-e2e', rig.api.url);
  });

  afterAll(async () => {
    await rig?.close();
  });

  it('switches the theme to dark, applied at once and after a reload', async () => {
    const before = await themeOf();
    await page.getByRole('radio', { name: 'Dark' }).check();
    await expect.poll(themeOf).toEqual({ attribute: 'dark', background: 'rgb(23, 23, 28)' });
    await page.reload();
    await page.getByRole('button', { name: 'Settings' }).waitFor();
    await expect.poll(themeOf).toEqual({ attribute: 'dark', background: 'rgb(23, 23, 28)' });
    await openSettings();
    expect(await page.getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true);
    await shot('settings-desktop-dark');
    await page.getByRole('radio', { name: 'Light' }).check();
    await expect.poll(themeOf).toEqual({ attribute: 'light', background: 'rgb(247, 247, 248)' });
    expect(before.attribute).toBeNull(); // "System" until the person picks one
  });

  it('paints a reload in the chosen theme from its first frame, before storage is read, whatever the system prefers', async () => {
    const held = await browser!.context.newPage();
    const backgroundOf = () => held.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const isReady = () => held.getByText(/^Profile: /).waitFor(); // shown once the profile is read
    /** Reloads with IndexedDB held; once the message box shows (storage still opening), the frames painted so far. */
    const reloadHeld = async () => {
      await held.reload({ waitUntil: 'commit' });
      await held.getByRole('textbox', { name: 'Message' }).waitFor();
      expect(await held.getByRole('status').filter({ hasText: 'Opening local storage…' }).isVisible()).toBe(true);
      const frames = await held.evaluate(
        (key) => (window as unknown as Record<string, string[]>)[key] ?? [],
        FRAME_BACKGROUNDS,
      );
      expect(frames.length).toBeGreaterThan(0);
      return [...frames, await backgroundOf()];
    };
    try {
      await held.addInitScript(holdIndexedDbOpen, { holdMs: HOLD_MS, failAfter: false });
      await held.addInitScript(recordFrameBackgrounds, { frames: 30, key: FRAME_BACKGROUNDS });
      await held.goto(app!.url);
      await isReady();
      for (const [system, chosen, expected] of [
        ['light', 'Dark', DARK_BG],
        ['dark', 'Light', LIGHT_BG],
      ] as const) {
        await held.emulateMedia({ colorScheme: system });
        if ((await held.getByRole('region', { name: 'Settings' }).count()) === 0)
          await held.getByRole('button', { name: 'Settings' }).click();
        await held.getByRole('radio', { name: chosen }).check();
        await expect.poll(backgroundOf).toBe(expected);
        // Not one frame in the system's palette, from the first one on, while the profile cannot have been read.
        expect((await reloadHeld()).filter((colour) => colour !== expected)).toEqual([]);
        await isReady();
        expect(await backgroundOf()).toBe(expected);
      }

      // The profile is the source of truth: a copy out of step with it (say, left by another tab) is corrected on
      // load, so the next reload on this dark system paints the profile's Light from the start again.
      await held.evaluate((key) => localStorage.setItem(key, 'dark'), THEME_MIRROR_KEY);
      await held.reload();
      await isReady();
      await expect.poll(backgroundOf).toBe(LIGHT_BG);
      expect(await held.evaluate((key) => localStorage.getItem(key), THEME_MIRROR_KEY)).toBe('light');
      expect((await reloadHeld()).filter((colour) => colour !== LIGHT_BG)).toEqual([]);
    } finally {
      await held.close();
    }
  });

  it('raised no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
