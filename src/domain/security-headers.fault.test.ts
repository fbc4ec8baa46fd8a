import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  headersFile,
  headersForPath,
  MCP_APP_SANDBOX_CONTENT_SECURITY_POLICY,
  nginxSnippet,
  SANDBOX_CONTENT_SECURITY_POLICY,
  SECURITY_HEADERS,
} from './security-headers';

describe('security headers', () => {
  it('forbid every framing page, by CSP and by X-Frame-Options for older browsers', () => {
    expect(SECURITY_HEADERS['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(SECURITY_HEADERS['Content-Security-Policy']).not.toMatch(/unsafe-eval|unsafe-inline/);
    expect(SECURITY_HEADERS['X-Frame-Options']).toBe('DENY');
    expect(SECURITY_HEADERS['X-Content-Type-Options']).toBe('nosniff');
  });

  it('switch off the powerful features the app never uses, naming only features Chromium recognises', () => {
    const features = SECURITY_HEADERS['Permissions-Policy']!.split(', ').map((entry) => entry.split('=')[0]);
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial', 'hid', 'midi'])
      expect(features).toContain(feature);
    // Chromium logs "Unrecognized feature: 'bluetooth'" on every load (the page's console showed it in a user trial).
    expect(features).not.toContain('bluetooth');
  });

  it('ship as a _headers file that applies to every path', () => {
    const file = headersFile();
    expect(file.startsWith('/*\n')).toBe(true);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(file).toContain(`  ${name}: ${value}\n`);
  });

  it('ship as the nginx snippet in deploy/, in step with the source', () => {
    const shipped = readFileSync(new URL('../../deploy/nginx-security-headers.conf', import.meta.url), 'utf8');
    expect(shipped).toBe(nginxSnippet());
    expect(shipped).toContain('add_header X-Frame-Options "DENY" always;');
  });

  it('give the code sandbox its own policy: eval but no connections, framed by this app only; the page keeps no eval', () => {
    expect(headersForPath('/index.html')).toBe(SECURITY_HEADERS);
    expect(headersForPath('/app/sandbox/code-runner.html', '/app/')['Content-Security-Policy']).toBe(
      SANDBOX_CONTENT_SECURITY_POLICY,
    );
    expect(SANDBOX_CONTENT_SECURITY_POLICY).toContain("connect-src 'none'");
    expect(SANDBOX_CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(SANDBOX_CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'self'");
    expect(SECURITY_HEADERS['Content-Security-Policy']).toContain("frame-src 'self'");
    expect(headersFile()).toContain(`/sandbox/*\n  ! Content-Security-Policy\n  ! X-Frame-Options\n`);
    const shipped = readFileSync(new URL('../../deploy/nginx-sandbox-headers.conf', import.meta.url), 'utf8');
    expect(shipped).toBe(nginxSnippet(headersForPath('/sandbox/x')));
  });

  it('give the MCP Apps proxy its own policy, shipped with the build and for nginx; the page keeps no inline script (issue #21)', () => {
    const proxy = headersForPath('/app/mcp-app/proxy.html', '/app/');
    expect(proxy['Content-Security-Policy']).toBe(MCP_APP_SANDBOX_CONTENT_SECURITY_POLICY);
    expect(proxy['X-Frame-Options']).toBeUndefined();
    expect(MCP_APP_SANDBOX_CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'self'");
    expect(MCP_APP_SANDBOX_CONTENT_SECURITY_POLICY).toContain("frame-src 'none'");
    expect(MCP_APP_SANDBOX_CONTENT_SECURITY_POLICY).toContain("form-action 'none'");
    expect(SECURITY_HEADERS['Content-Security-Policy']).toContain("script-src 'self';");
    expect(SECURITY_HEADERS['Content-Security-Policy']).not.toContain('unsafe-inline');
    expect(headersFile()).toContain(`/mcp-app/*\n  ! Content-Security-Policy\n  ! X-Frame-Options\n`);
    const shipped = readFileSync(new URL('../../deploy/nginx-mcp-app-headers.conf', import.meta.url), 'utf8');
    expect(shipped).toBe(nginxSnippet(headersForPath('/mcp-app/x')));
    // The proxy page carries the same policy as a meta tag, for hosts that send no headers.
    const page = readFileSync(new URL('../../public/mcp-app/proxy.html', import.meta.url), 'utf8');
    expect(page.replace(/\s+/g, ' ')).toContain(
      MCP_APP_SANDBOX_CONTENT_SECURITY_POLICY.replace("; frame-ancestors 'self'", ''),
    );
  });
});
