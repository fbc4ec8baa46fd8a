import { describe, expect, it } from 'vitest';
import { buildAppCsp, withAppCsp } from './mcp-app-csp';

const directive = (policy: string, name: string) =>
  policy
    .split('; ')
    .find((d) => d.startsWith(`${name} `))
    ?.slice(name.length + 1);

describe('an MCP App’s CSP', () => {
  it('reaches nothing when the resource declares nothing', () => {
    const { policy, refused } = buildAppCsp(undefined);
    expect(directive(policy, 'default-src')).toBe("'none'");
    expect(directive(policy, 'connect-src')).toBe("'none'");
    expect(directive(policy, 'frame-src')).toBe("'none'");
    expect(directive(policy, 'base-uri')).toBe("'none'");
    expect(directive(policy, 'form-action')).toBe("'none'");
    expect(directive(policy, 'script-src')).toBe("'unsafe-inline' 'unsafe-eval' blob:");
    expect(directive(policy, 'img-src')).toBe('data: blob:');
    expect(refused).toEqual([]);
  });

  it('lets the declared origins in, each where it was declared', () => {
    const { policy } = buildAppCsp({
      connectDomains: ['https://api.example.com', 'wss://live.example.com'],
      resourceDomains: ['https://*.cdn.example.com', 'http://127.0.0.1:4312/'],
      frameDomains: ['https://player.example.com'],
    });
    expect(directive(policy, 'connect-src')).toBe('https://api.example.com wss://live.example.com');
    expect(directive(policy, 'script-src')).toContain('https://*.cdn.example.com http://127.0.0.1:4312');
    expect(directive(policy, 'img-src')).toContain('https://*.cdn.example.com');
    expect(directive(policy, 'connect-src')).not.toContain('cdn.example.com');
    expect(directive(policy, 'frame-src')).toBe('https://player.example.com');
  });

  it('refuses entries that would widen the policy or break out of a directive', () => {
    const hostile = [
      "https://a.example 'unsafe-hashes'",
      'https://a.example; script-src *',
      '*',
      'https:',
      "'self'",
      'javascript:alert(1)',
      'https://a.example/path?x',
      42,
    ];
    const { policy, refused } = buildAppCsp({ connectDomains: hostile, resourceDomains: 'https://b.example' });
    expect(directive(policy, 'connect-src')).toBe("'none'");
    expect(policy.split('; ').filter((d) => d.startsWith('script-src'))).toHaveLength(1);
    expect(policy).not.toContain('*;');
    expect(refused).toHaveLength(hostile.length + 1);
  });

  it('puts the policy before anything of the app, with its quotes escaped', () => {
    const html = withAppCsp('<html><head><script>1</script>', `default-src 'none'; x "y"`);
    expect(html.startsWith('<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src')).toBe(
      true,
    );
    expect(html).toContain('x &quot;y&quot;');
    expect(html.indexOf('<meta')).toBeLessThan(html.indexOf('<script>'));
  });
});
