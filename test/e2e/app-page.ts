/** The built app open in a fresh Chromium: the deployer's app-config.json as a test gives it, errors and console collected. */
import type { Page } from 'playwright-core';
import { launchChromium, type LaunchedChromium } from './browser';

/** app-config.json deferring every tool and preloading none: a tool reaches the model only when searched or mentioned. */
export const DEFER_ALL_APP_CONFIG = { defaults: { model: 'claude-sonnet-5', toolSearch: { deferral: 'always', preloadCount: 0 } } };

export interface AppPageOptions {
  /** Served as /app-config.json instead of the build's own file. */
  readonly appConfig?: unknown;
  readonly viewport?: { readonly width: number; readonly height: number };
}

export interface AppPage {
  readonly browser: LaunchedChromium;
  readonly page: Page;
  /** Uncaught errors of the page, as they happen. */
  readonly pageErrors: string[];
  /** Every console line of the page (a CSP refusal shows here). */
  readonly consoleLines: string[];
}

/** Launches Chromium and opens the app at `url`, with `appConfig` as the deployer's file when given. */
export async function openAppPage(url: string, options: AppPageOptions = {}): Promise<AppPage> {
  const browser = await launchChromium();
  try {
    const { appConfig } = options;
    if (appConfig !== undefined) {
      await browser.context.route('**/app-config.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(appConfig) }));
    }
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const pageErrors: string[] = [];
    const consoleLines: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => consoleLines.push(message.text()));
    await page.setViewportSize(options.viewport ?? { width: 1280, height: 860 });
    await page.goto(url);
    return { browser, page, pageErrors, consoleLines };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
