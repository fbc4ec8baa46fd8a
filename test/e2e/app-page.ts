/** The built app open in a fresh Chromium: the deployer's app-config.json as a test gives it, errors and console collected. */
import type { Page } from 'playwright-core';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { startServerEverything } from '../fixtures/server-everything';
import { startAppServer, type AppServer } from './app-server';
import { launchChromium, type LaunchedChromium } from './browser';

/** app-config.json deferring every tool and preloading none: a tool reaches the model only when searched or mentioned. */
export const DEFER_ALL_APP_CONFIG = {
  defaults: { model: 'claude-sonnet-5', toolSearch: { deferral: 'always', preloadCount: 0 } },
};

/** app-config.json with the deployer's `servers`, every tool sent with each call (so a request shows all it offers). */
export function appServersConfig(
  servers: readonly { readonly id: string; readonly name: string; readonly url: string }[],
) {
  return { servers, defaults: { toolSearch: { deferral: 'never' } } };
}

export interface AppPageOptions {
  /** Served as /app-config.json instead of the build's own file. */
  readonly appConfig?: unknown;
  readonly viewport?: { readonly width: number; readonly height: number };
  /** Whether the app's service worker may install (see launchChromium); blocked unless a suite asks. */
  readonly serviceWorkers?: 'allow' | 'block';
}

export interface AppPage {
  readonly browser: LaunchedChromium;
  readonly page: Page;
  /** Uncaught errors of the page, as they happen. */
  readonly pageErrors: string[];
  /** Every console line of the page (a CSP refusal shows here, also one the page's code caught). */
  readonly consoleLines: string[];
}

/** Launches Chromium and opens the app at `url`, with `appConfig` as the deployer's file when given. */
export async function openAppPage(url: string, options: AppPageOptions = {}): Promise<AppPage> {
  const browser = await launchChromium(options.serviceWorkers ? { serviceWorkers: options.serviceWorkers } : {});
  try {
    const { appConfig } = options;
    if (appConfig !== undefined) {
      await browser.context.route('**/app-config.json', (route) =>
        route.fulfill({ contentType: 'application/json', body: JSON.stringify(appConfig) }),
      );
    }
    // A refusal caught by the page's own code (a try/catch around eval, say) logs nothing to the console in Chromium;
    // its securitypolicyviolation event does fire: it is logged as a "Refused to …" line like the others.
    await browser.context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(`Refused to ${event.effectiveDirective} (securitypolicyviolation: ${event.blockedURI})`);
      });
    });
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

export interface ModelRig extends AppPage {
  readonly app: AppServer;
  readonly api: FakeAnthropic;
  /** Closes the browser, the app server and the fake API. */
  close(): Promise<void>;
}

/** The built app with the fake Messages API running beside it, open in Chromium. */
export async function startModelRig(options: AppPageOptions = {}): Promise<ModelRig> {
  const [api, app] = await Promise.all([startFakeAnthropic(), startAppServer()]);
  const stopServers = async () => {
    await app.close();
    await api.stop();
  };
  try {
    const opened = await openAppPage(app.url, options);
    return {
      ...opened,
      app,
      api,
      async close() {
        await opened.browser.close();
        await stopServers();
      },
    };
  } catch (error) {
    await stopServers();
    throw error;
  }
}

export interface EverythingRig extends AppPage {
  readonly app: AppServer;
  readonly api: FakeAnthropic;
  /** server-everything over streamable HTTP on 127.0.0.1. */
  readonly everything: Awaited<ReturnType<typeof startServerEverything>>;
  /** Closes the browser, the app server, the fake API and server-everything. */
  close(): Promise<void>;
}

/** The built app with the fake Messages API and server-everything running beside it, open in Chromium. */
export async function startEverythingRig(options: AppPageOptions = {}): Promise<EverythingRig> {
  const [everything, rig] = await Promise.allSettled([
    startServerEverything({ mode: 'streamableHttp' }),
    startModelRig(options),
  ]);
  if (everything.status === 'rejected' || rig.status === 'rejected') {
    // Whatever did start is stopped again.
    if (everything.status === 'fulfilled') await everything.value.stop();
    if (rig.status === 'fulfilled') await rig.value.close();
    throw everything.status === 'rejected' ? everything.reason : (rig as PromiseRejectedResult).reason;
  }
  return {
    ...rig.value,
    everything: everything.value,
    async close() {
      await rig.value.close();
      await everything.value.stop();
    },
  };
}

/** First run as a person does it: the API key and the fake API's base URL saved in Settings, and "Saved." seen. */
export async function saveKeyAndBaseUrl(page: Page, apiKey: string, baseUrl: string): Promise<void> {
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('textbox', { name: 'Base URL' }).fill(baseUrl);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved.').waitFor();
}
