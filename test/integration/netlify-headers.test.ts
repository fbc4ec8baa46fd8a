// The `_headers` file the build ships, as Netlify reads it (test/fixtures/netlify-headers.ts): the code sandbox's
// page gets its own policy (eval, no connections, framed by the app only) and every app page the app's (no eval, no
// framing). The file comes from the build's own plugin in vite.config.ts.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Plugin } from 'vite';
import viteConfig from '../../vite.config';
import {
  SANDBOX_CONTENT_SECURITY_POLICY,
  SECURITY_HEADERS,
  SANDBOX_DIRECTORY,
} from '../../src/domain/security-headers';
import { OAUTH_CALLBACK_PATH } from '../../src/domain/oauth-client-metadata';
import { netlifyHeadersFor, netlifyPathPattern, parseNetlifyHeaders } from '../fixtures/netlify-headers';

/** The `_headers` file the build emits for `base`, by running the build's plugin hooks. */
function shippedHeaders(base: string): string {
  const plugins = (viteConfig.plugins ?? []).flat() as Plugin[];
  const plugin = plugins.find((p) => p?.name === 'content-security-policy');
  if (!plugin) throw new Error('the build has no content-security-policy plugin');
  const emitted: { fileName?: string; source?: unknown }[] = [];
  const resolved = plugin.configResolved as unknown as (config: { base: string }) => void;
  resolved({ base });
  const generate = plugin.generateBundle as unknown as (this: unknown) => void;
  generate.call({ emitFile: (file: { fileName?: string; source?: unknown }) => void emitted.push(file) });
  const file = emitted.find((f) => f.fileName === '_headers');
  if (typeof file?.source !== 'string') throw new Error('the build emits no _headers file');
  return file.source;
}

describe('the shipped _headers file on Netlify', () => {
  for (const base of ['/', '/agent/']) {
    it(`gives the sandbox its policy and the app its own (base ${base})`, () => {
      const rules = parseNetlifyHeaders(shippedHeaders(base));
      const sandbox = netlifyHeadersFor(rules, `${base}${SANDBOX_DIRECTORY}code-runner.html`);
      const worker = netlifyHeadersFor(rules, `${base}${SANDBOX_DIRECTORY}code-worker.js`);
      expect(sandbox['Content-Security-Policy']).toBe(SANDBOX_CONTENT_SECURITY_POLICY);
      expect(worker['Content-Security-Policy']).toBe(SANDBOX_CONTENT_SECURITY_POLICY);
      // The frame the app makes must load: the sandbox may be framed by this origin. (A page whose CSP has
      // frame-ancestors is not held to X-Frame-Options: HTML, "check a navigation response's adherence to
      // X-Frame-Options".)
      expect(sandbox['Content-Security-Policy']).toContain("frame-ancestors 'self'");
      expect(sandbox['Content-Security-Policy']).not.toContain(SECURITY_HEADERS['Content-Security-Policy']);
      for (const path of [base, `${base}index.html`, `${base}assets/index-abc.js`, `${base}${OAUTH_CALLBACK_PATH}`]) {
        const page = netlifyHeadersFor(rules, path);
        expect(page['Content-Security-Policy'], path).toBe(SECURITY_HEADERS['Content-Security-Policy']);
        expect(page['Content-Security-Policy'], path).not.toContain('unsafe-eval');
        expect(page['X-Frame-Options'], path).toBe('DENY');
      }
      // The rest applies everywhere, the sandbox included.
      for (const name of ['X-Content-Type-Options', 'Referrer-Policy', 'Permissions-Policy'])
        expect(sandbox[name], name).toBe(SECURITY_HEADERS[name]);
    });
  }

  it('reads paths as Netlify does: a standalone * takes any rest, and nothing the app ships shares the sandbox’s prefix', () => {
    expect(netlifyPathPattern('/sandbox/*').test('/sandbox/code-runner.html')).toBe(true);
    expect(netlifyPathPattern('/sandbox/*').test('/sandbox')).toBe(true);
    // The slash before a standalone * is optional too, so `/sandbox/*` also takes `/sandboxed.html`: no file the app
    // ships outside the sandbox directory may start with its name, or it would get the sandbox's policy.
    expect(netlifyPathPattern('/sandbox/*').test('/sandboxed.html')).toBe(true);
    const published = readdirSync(new URL('../../public', import.meta.url));
    expect(published.filter((name) => name.startsWith(SANDBOX_DIRECTORY.replace('/', '')))).toEqual(['sandbox']);
    expect(netlifyPathPattern('/*').test('/')).toBe(true);
    expect(() => parseNetlifyHeaders('/*\n  X-Empty:\n')).toThrow(/Missing header value/);
    expect(() => parseNetlifyHeaders('  X-Early: 1\n')).toThrow(/Path should come before header/);
  });
});
