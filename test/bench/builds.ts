// The builds `npm run bench` measures, all with the project's vite.config.ts (same plugins, minifier and target):
// the app, and next to it under /bench/ the pages that give baselines and drive the app's modules in Chromium.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Where the builds go; E2E_OUT_DIR keeps two checkouts' runs apart. */
export const OUT_DIR = join(ROOT, process.env.E2E_OUT_DIR ?? 'test-results/bench-dist');

/** A page of test/bench/browser/, built on its own so that it shares no chunk with another page. */
export interface BenchPage {
  readonly name: 'harness' | 'bare-react' | 'bare-sdks';
  /** The URL path of its HTML under the served directory. */
  readonly path: string;
  /** Its build directory. */
  readonly dir: string;
}

export const PAGES: readonly BenchPage[] = (['harness', 'bare-react', 'bare-sdks'] as const).map((name) => ({
  name,
  path: `/bench/${name}/test/bench/browser/${name}.html`,
  dir: join(OUT_DIR, 'bench', name),
}));

export const pageOf = (name: BenchPage['name']): BenchPage => PAGES.find((page) => page.name === name)!;

/** Builds the app (as `npm run build` does, with a manifest), then each bench page into its own folder. */
export async function buildAll(): Promise<void> {
  await build({ root: ROOT, logLevel: 'error', build: { outDir: OUT_DIR, emptyOutDir: true, manifest: true } });
  for (const page of PAGES) {
    await build({
      root: ROOT,
      base: `/bench/${page.name}/`,
      logLevel: 'error',
      build: { outDir: page.dir, emptyOutDir: true, manifest: true, copyPublicDir: false, rolldownOptions: { input: join(ROOT, `test/bench/browser/${page.name}.html`) } },
    });
  }
}

export interface Served {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves the builds with Vite's preview server on a free port of 127.0.0.1. */
export async function serveBuilds(): Promise<Served> {
  const server = await preview({ root: ROOT, logLevel: 'error', build: { outDir: OUT_DIR }, preview: { host: '127.0.0.1', port: 0, strictPort: false } });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('the preview server has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((resolve, reject) => server.httpServer.close((error) => (error ? reject(error) : resolve()))),
  };
}
