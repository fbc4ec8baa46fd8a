// The builds `npm run bench` measures, all with the project's vite.config.ts (same plugins, minifier and target):
// the app, and next to it under /bench/ the pages that give baselines and drive the app's modules in Chromium.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

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

/**
 * Builds the app (as `npm run build` does, with a manifest), then each bench page into its own folder, under `out`
 * (OUT_DIR unless an A/B tool builds a checkout into a folder of its own).
 */
export async function buildAll(out = OUT_DIR): Promise<void> {
  await build({ root: ROOT, logLevel: 'error', build: { outDir: out, emptyOutDir: true, manifest: true } });
  for (const page of PAGES.map((page) => ({ ...page, dir: join(out, 'bench', page.name) }))) {
    await build({
      root: ROOT,
      base: `/bench/${page.name}/`,
      logLevel: 'error',
      build: {
        outDir: page.dir,
        emptyOutDir: true,
        manifest: true,
        copyPublicDir: false,
        rolldownOptions: { input: join(ROOT, `test/bench/browser/${page.name}.html`) },
      },
    });
  }
}

export interface Served {
  readonly url: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json',
};

/**
 * Serves the builds in `root` (OUT_DIR unless given) on a free port of 127.0.0.1 as a static host would: files from
 * memory, gzipped once (Vite's preview server gzips every response anew, which would charge bigger bundles for its
 * CPU time).
 */
export async function serveBuilds(root = OUT_DIR): Promise<Served> {
  const gzipped = new Map<string, Buffer>();
  const server = createServer((req, res) => {
    void (async () => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
      const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
      if (!file.startsWith(root)) return void res.writeHead(403).end();
      const body = await readFile(file).catch(() => undefined);
      if (!body) return void res.writeHead(404).end();
      const headers: Record<string, string> = {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
      };
      if (/\bgzip\b/.test(String(req.headers['accept-encoding'])) && body.length > 1024) {
        if (!gzipped.has(file)) gzipped.set(file, gzipSync(body));
        res.writeHead(200, { ...headers, 'content-encoding': 'gzip' }).end(gzipped.get(file));
      } else res.writeHead(200, headers).end(body);
    })();
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the bench server has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections(); // Chromium keeps idle keep-alive connections open.
      }),
  };
}
