import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { headersFile, nginxSnippet, SECURITY_HEADERS } from './security-headers';

describe('security headers', () => {
  it('forbid every framing page, by CSP and by X-Frame-Options for older browsers', () => {
    expect(SECURITY_HEADERS['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(SECURITY_HEADERS['Content-Security-Policy']).not.toMatch(/unsafe-eval|unsafe-inline/);
    expect(SECURITY_HEADERS['X-Frame-Options']).toBe('DENY');
    expect(SECURITY_HEADERS['X-Content-Type-Options']).toBe('nosniff');
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
});
