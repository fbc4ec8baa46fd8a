import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer as createNetServer } from 'node:net';
import { defineConfig, type Plugin } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { SERVICE_WORKER_FILE, shellFiles } from './src/domain/app-shell.ts';
import { CLIENT_METADATA_PATH, clientMetadataDocument } from './src/domain/oauth-client-metadata.ts';
import {
  CONTENT_SECURITY_POLICY,
  DEV_SERVER_HEADERS,
  headersFile,
  headersForPath,
  SECURITY_HEADERS,
} from './src/domain/security-headers.ts';

/**
 * Emits the OAuth client ID metadata document for the deployed origin (MCP_AGENT_ORIGIN=https://…), so the
 * static site serves it at /oauth/client-metadata.json; app-config.json's oauth.clientMetadataUrl points there.
 */
function oauthClientMetadata(): Plugin {
  let base = '/';
  return {
    name: 'oauth-client-metadata',
    configResolved: (config) => void (base = config.base),
    generateBundle() {
      const origin = process.env.MCP_AGENT_ORIGIN;
      if (!origin) return;
      if (!origin.startsWith('https://'))
        throw new Error('MCP_AGENT_ORIGIN must be an https:// origin (authorization servers fetch the document)');
      this.emitFile({
        type: 'asset',
        fileName: CLIENT_METADATA_PATH,
        source: `${JSON.stringify(clientMetadataDocument(origin, base), null, 2)}\n`,
      });
    },
  };
}

/**
 * The built page carries its CSP as a `<meta>` tag too, for hosts that send no headers; the build also ships the full
 * set of security headers as `_headers` (Netlify, Cloudflare Pages). deploy/nginx-security-headers.conf is nginx's.
 */
function contentSecurityPolicy(): Plugin {
  let base = '/';
  return {
    name: 'content-security-policy',
    apply: 'build', // The dev server injects inline scripts for hot reload.
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY },
        injectTo: 'head-prepend',
      },
    ],
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: '_headers', source: headersFile(SECURITY_HEADERS, base) });
    },
    configResolved: (config) => void (base = config.base),
  };
}

/**
 * The dev and preview servers send each path its headers: the code sandbox's directory (public/sandbox/) its own
 * policy (it is framed and evaluates code), every other path the page's.
 */
function securityHeadersByPath(): Plugin {
  let base = '/';
  type Middlewares = { use(handle: (req: IncomingMessage, res: ServerResponse, next: () => void) => void): unknown };
  // Returns nothing: a function returned from configureServer would run as a post hook.
  const use =
    (pageHeaders: Readonly<Record<string, string>>) =>
    (server: { middlewares: Middlewares }): void => {
      server.middlewares.use((req, res, next) => {
        const path = new URL(req.url ?? '/', 'http://localhost').pathname;
        for (const [name, value] of Object.entries(headersForPath(path, base, pageHeaders))) res.setHeader(name, value);
        next();
      });
    };
  return {
    name: 'security-headers-by-path',
    configResolved: (config) => void (base = config.base),
    configureServer: use(DEV_SERVER_HEADERS),
    configurePreviewServer: use(SECURITY_HEADERS),
  };
}

/**
 * Puts the open profile's theme on the page before its first paint: public/theme-boot.js, a classic script (the CSP
 * allows no inline one) that blocks the parser. It goes after the entry's own tags, so that the entry script and
 * stylesheet are requested before it holds the parser up (ahead of them, cold start went from about 1.2x to 1.4x).
 */
function themeBeforeFirstPaint(): Plugin {
  let base = '/';
  return {
    name: 'theme-before-first-paint',
    configResolved: (config) => void (base = config.base),
    transformIndexHtml: {
      order: 'post',
      handler: () => [{ tag: 'script', attrs: { src: `${base}theme-boot.js` }, injectTo: 'head' }],
    },
  };
}

/**
 * Builds only: writes sw.js, the service worker (src/service-worker/sw.js, hand-written) with the app shell it keeps
 * for offline use (every built file shellFiles() keeps) and a version that changes with any of those files, so that
 * each deploy installs as a new version. After the bundle and public/ are on disk, so it sees every file.
 */
function serviceWorker(): Plugin {
  let outDir = 'dist';
  return {
    name: 'app-service-worker',
    apply: 'build',
    configResolved: (config) => void (outDir = resolve(config.root, config.build.outDir)),
    writeBundle: {
      order: 'post',
      handler() {
        const built = (readdirSync(outDir, { recursive: true }) as string[]).filter((path) =>
          statSync(join(outDir, path)).isFile(),
        );
        const files = shellFiles(built);
        const hash = createHash('sha256');
        for (const file of files) hash.update(file).update(readFileSync(join(outDir, file)));
        const build = { version: hash.digest('hex').slice(0, 16), files };
        const source = readFileSync(fileURLToPath(new URL('./src/service-worker/sw.js', import.meta.url)), 'utf8');
        writeFileSync(join(outDir, SERVICE_WORKER_FILE), `const BUILD = ${JSON.stringify(build)};\n${source}`);
      },
    },
  };
}

const AJV_STUB_ID = '\0mcp-sdk-ajv-provider-stub';

/**
 * Builds only: keeps ajv (about 40 kB gzip) out of the bundle. The MCP SDK's Client imports its ajv validator
 * as the default, but the app always passes a @cfworker/json-schema one (ajv compiles code, which the CSP
 * forbids), so the default is never constructed; the stub throws if it ever is.
 */
function withoutAjv(): Plugin {
  return {
    name: 'mcp-sdk-without-ajv',
    apply: 'build',
    enforce: 'pre', // Before Vite's own resolver, which would resolve the relative import first.
    resolveId(source, importer) {
      if (source.endsWith('/validation/ajv-provider.js') && importer?.includes('@modelcontextprotocol/sdk'))
        return AJV_STUB_ID;
      return null;
    },
    load(id) {
      if (id !== AJV_STUB_ID) return null;
      return "export class AjvJsonSchemaValidator { constructor() { throw new Error('ajv is not bundled: pass jsonSchemaValidator to the MCP Client'); } }";
    },
  };
}

/**
 * `npm start` only: runs @modelcontextprotocol/server-everything on 127.0.0.1 and offers it as an app-level
 * server ("Demo"), so a newcomer sees MCP working with nothing but an API key. Builds never include it;
 * MCP_AGENT_DEMO=0 turns it off.
 */
function demoMcpServer(): Plugin {
  return {
    name: 'demo-mcp-server',
    apply: 'serve',
    async configureServer(server) {
      if (process.env.VITEST || process.env.MCP_AGENT_DEMO === '0') return;
      const port = await new Promise<number>((resolve) => {
        const probe = createNetServer().listen(0, '127.0.0.1', () => {
          const address = probe.address();
          probe.close(() => resolve(typeof address === 'object' && address ? address.port : 3001));
        });
      });
      const child = spawn(
        process.execPath,
        ['node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'streamableHttp'],
        {
          env: { ...process.env, PORT: String(port), NODE_OPTIONS: '--require ./test/fixtures/loopback-only.cjs' },
          stdio: 'ignore',
        },
      );
      server.httpServer?.once('close', () => child.kill());
      process.once('exit', () => child.kill());
      server.middlewares.use('/app-config.json', (_req, res) => {
        const config = JSON.parse(readFileSync('public/app-config.json', 'utf8')) as {
          servers?: unknown[];
          defaults?: { threadServerIds?: string[] };
        };
        const demo = { id: 'demo', name: 'Demo (server-everything)', url: `http://127.0.0.1:${port}/mcp` };
        // On in new threads, so a newcomer's first thread has it (and it connects when that thread is open).
        const defaults = { ...config.defaults, threadServerIds: [...(config.defaults?.threadServerIds ?? []), 'demo'] };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ ...config, defaults, servers: [...(config.servers ?? []), demo] }));
      });
      server.config.logger.info(`  Demo MCP server (server-everything): http://127.0.0.1:${port}/mcp`);
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    oauthClientMetadata(),
    contentSecurityPolicy(),
    securityHeadersByPath(),
    themeBeforeFirstPaint(),
    withoutAjv(),
    serviceWorker(),
    demoMcpServer(),
  ],
  resolve: {
    alias: [
      {
        // rehype-katex parses KaTeX's HTML into a tree for React. In a browser that package parses it with a <template>
        // element, whose style attributes the CSP refuses (one console error per attribute); its parse5 build (pure JS,
        // no DOM) gives the same tree without touching the page, and React then applies the styles through the CSSOM.
        find: /^hast-util-from-html-isomorphic$/,
        replacement: fileURLToPath(
          new URL('./node_modules/hast-util-from-html-isomorphic/lib/index.js', import.meta.url),
        ),
      },
    ],
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { host: '127.0.0.1', port: 4173 },
  build: {
    target: 'es2022',
    sourcemap: true,
    // Fonts stay files (KaTeX's smallest are under Vite's 4 kB inlining limit): the CSP's font-src takes no data: URL.
    assetsInlineLimit: (file) => (/\.(woff2?|ttf)$/.test(file) ? false : undefined),
  },
  test: {
    // Tests wait for events; these limits only catch a hang, so they are sized for a busy shared 2-core machine
    // (npm run test:stress), not for an idle one. A test whose subject is time injects its clock instead.
    expect: { poll: { timeout: 15_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: [
            'src/**/*.test.{ts,tsx}',
            'test/integration/**/*.test.ts',
            'test/fixtures/**/*.test.ts',
            'test/fakes/**/*.test.ts',
            'relay/**/*.test.ts',
          ],
          setupFiles: ['test/setup-unit.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.e2e.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
