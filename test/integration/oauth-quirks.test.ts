/**
 * OAuth discovery quirks of real servers (issue #19), through the registry's sign-in: metadata only at
 * /.well-known/openid-configuration, and protected-resource metadata only at the path-suffixed location (RFC 9728
 * section 3.1). The browser-only quirk (a token endpoint without CORS) is in test/e2e/faults/quirks.e2e.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SignInCallback } from '../../src/mcp/registry';
import { createTestRegistry } from '../fakes/test-registry';
import { startOAuthMcpServer, type OAuthMcpServerOptions } from '../fixtures/oauth-mcp-server';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function signInTo(options: OAuthMcpServerOptions) {
  const server = await startOAuthMcpServer(options);
  cleanup.push(() => server.stop());
  const { registry } = createTestRegistry({
    oauth: { settings: { redirectUrl: 'http://127.0.0.1:5173/oauth/callback', clientName: 'MCP Agent test' } },
  });
  cleanup.push(() => registry.close());
  await registry.register({ id: 'notes', name: 'Notes', url: server.url, auth: { kind: 'oauth' } }, 'user');
  expect((await registry.connect('notes')).status).toBe('needs-auth');
  let callback: SignInCallback | undefined;
  await registry.signIn('notes', async (url) => {
    const response = await fetch(url, { redirect: 'manual' });
    const back = new URL(response.headers.get('location') ?? '');
    callback = { state: back.searchParams.get('state') ?? '', code: back.searchParams.get('code') ?? '' };
  });
  return { server, registry, done: await registry.completeSignIn(callback!) };
}

describe('OAuth discovery quirks', () => {
  it('authorization-server metadata only at /.well-known/openid-configuration: signs in and calls a tool', async () => {
    const { server, registry, done } = await signInTo({ openIdConfigurationOnly: true });
    expect(done.state.status).toBe('connected');
    expect((await fetch(`${new URL(server.url).origin}/.well-known/oauth-authorization-server`)).status).toBe(404);
    const result = await registry.callTool('notes', 'add', { a: 2, b: 3 });
    expect(result.content).toEqual([{ type: 'text', text: '2+3=5' }]);
  });

  it('protected-resource metadata only at the path-suffixed location (RFC 9728 3.1): signs in', async () => {
    const { server, done } = await signInTo({});
    expect(done.state.status).toBe('connected');
    const origin = new URL(server.url).origin;
    expect((await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).status).toBe(200);
    expect((await fetch(`${origin}/.well-known/oauth-protected-resource`)).status).toBe(404);
  });
});
