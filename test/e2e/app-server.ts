/** The production build of the app, served by Vite's preview server on 127.0.0.1 (with the SPA fallback). */
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** E2E_OUT_DIR lets two test processes on one checkout build side by side. */
export const OUT_DIR = process.env.E2E_OUT_DIR ?? 'test-results/e2e-dist';
let built: Promise<unknown> | undefined;

export interface AppServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Builds the app once per test process (the real vite.config.ts) into OUT_DIR. */
export async function buildApp(): Promise<void> {
  built ??= build({
    root: ROOT,
    logLevel: 'warn',
    build: { outDir: OUT_DIR, emptyOutDir: true, minify: process.env.E2E_MINIFY !== '0' },
  });
  await built;
}

/**
 * Builds the app once per test process and serves it on a free port: the build itself, or `outDir` (a copy of it that
 * a test changes, as a new deploy would).
 */
export async function startAppServer(options: { readonly outDir?: string } = {}): Promise<AppServer> {
  await buildApp();
  const server = await preview({
    root: ROOT,
    logLevel: 'warn',
    build: { outDir: options.outDir ?? OUT_DIR },
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('the preview server has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => server.httpServer.close((error) => (error ? reject(error) : resolve()))),
  };
}
