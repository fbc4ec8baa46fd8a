/** Shared helpers for browser suites: a real Chromium (playwright-core) and a Vite dev server on 127.0.0.1. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { createServer } from 'vite';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LaunchedChromium {
  /** A persistent context: IndexedDB and other storage survive page reloads within the test. */
  readonly context: BrowserContext;
  /** The throwaway profile directory (a test may read what Chromium wrote to disk). */
  readonly userDataDir: string;
  /** Closes the browser and removes its profile directory. */
  close(): Promise<void>;
}

export interface LaunchOptions {
  /**
   * 'allow' lets the app's service worker install (the offline suite). Other suites block it, as Playwright advises
   * for tests that route or abort requests: requests a service worker answers from its cache never reach a route, so
   * a suite that makes a chunk fail to load, or swaps app-config.json, would otherwise test the cache instead.
   */
  readonly serviceWorkers?: 'allow' | 'block';
}

/** Launches Debian's Chromium (or CHROMIUM_PATH) with a fresh, throwaway user-data-dir. */
export async function launchChromium(options: LaunchOptions = {}): Promise<LaunchedChromium> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'mcp-agent-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
      serviceWorkers: options.serviceWorkers ?? 'block',
    });
    return {
      context,
      userDataDir,
      async close() {
        await context.close().catch(() => undefined);
        await rm(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
}

export interface ViteServerOptions {
  /** The directory served at "/" (for the repo root, "/test/e2e/..." and "/src/..." resolve). */
  readonly root: string;
  /** HTML files whose imports Vite pre-bundles up front, so that no dependency discovery reloads the page mid-test. */
  readonly entries?: readonly string[];
}

export interface StartedViteServer {
  /** The server's origin, e.g. "http://127.0.0.1:41234". */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts a Vite dev server on a free port of 127.0.0.1, ignoring the project's config file, without HMR or file watching. */
export async function startViteServer(options: ViteServerOptions): Promise<StartedViteServer> {
  const cacheDir = await mkdtemp(join(tmpdir(), 'mcp-agent-vite-'));
  // No watcher and no HMR: other people's edits under src/ must not reload the page during a test.
  const server = await createServer({
    root: options.root,
    configFile: false,
    cacheDir,
    logLevel: 'warn',
    clearScreen: false,
    server: { host: '127.0.0.1', port: 0, strictPort: true, hmr: false, watch: null },
    optimizeDeps: options.entries ? { entries: [...options.entries] } : {},
  });
  try {
    await server.listen();
    const address = server.httpServer?.address();
    if (!address || typeof address === 'string') throw new Error('Vite did not report a TCP address');
    return {
      url: `http://127.0.0.1:${address.port}`,
      async close() {
        await server.close();
        await rm(cacheDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server.close();
    await rm(cacheDir, { recursive: true, force: true });
    throw error;
  }
}
