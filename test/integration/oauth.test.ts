import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { OAuthFlowError } from '../../src/domain/mcp-errors';
import type { SignInCallback } from '../../src/mcp/registry';
import { createLocalLocks, type Locks } from '../../src/platform/locks';
import type { MemorySecretStore } from '../fakes/memory-stores';
import { TEST_PROFILE, createTestRegistry } from '../fakes/test-registry';
import { listenOnLoopback } from '../fixtures/listen-loopback';
import { startOAuthMcpServer } from '../fixtures/oauth-mcp-server';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

type OAuthServer = Awaited<ReturnType<typeof startOAuthMcpServer>>;

async function oauthServer(options?: Parameters<typeof startOAuthMcpServer>[0]): Promise<OAuthServer> {
  const server = await startOAuthMcpServer(options);
  cleanup.push(() => server.stop());
  return server;
}

/**
 * A protected server whose answers the test writes: `answer` answers a request (true) or leaves it to the 401 naming
 * the server's protected-resource metadata, as a server wanting a sign-in sends. Its MCP URL is `${origin}/mcp`.
 */
async function handWrittenServer(
  answer: (req: IncomingMessage, res: ServerResponse, origin: string) => boolean,
): Promise<string> {
  let origin = '';
  const listener = await listenOnLoopback(
    createServer((req, res) => {
      if (answer(req, res, origin)) return;
      res
        .writeHead(401, {
          'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
        })
        .end();
    }),
  );
  origin = `http://127.0.0.1:${listener.port}`;
  cleanup.push(listener.close);
  return origin;
}

/** Stands in for the person in the popup: follows the authorization URL and reads the redirect back. */
async function approve(url: URL): Promise<SignInCallback> {
  const response = await fetch(url, { redirect: 'manual' });
  const back = new URL(response.headers.get('location') ?? '');
  const iss = back.searchParams.get('iss');
  return {
    state: back.searchParams.get('state') ?? '',
    code: back.searchParams.get('code') ?? '',
    ...(iss !== null ? { iss } : {}),
  };
}

function oauthRegistry(shared?: { secrets: MemorySecretStore; locks: Locks; now: () => number }) {
  const test = createTestRegistry({
    oauth: {
      settings: { redirectUrl: 'http://127.0.0.1:5173/oauth/callback', clientName: 'MCP Agent test' },
      ...(shared ? { locks: shared.locks } : {}),
    },
    ...(shared ? { secrets: shared.secrets, now: shared.now } : {}),
  });
  cleanup.push(() => test.registry.close());
  return test;
}

async function signedIn(server: OAuthServer) {
  const test = oauthRegistry();
  await test.registry.register({ id: 'notes', name: 'Notes', url: server.url, auth: { kind: 'oauth' } }, 'user');
  expect((await test.registry.connect('notes')).status).toBe('needs-auth');
  let callback: SignInCallback | undefined;
  expect(await test.registry.signIn('notes', async (url) => void (callback = await approve(url)))).toBe('redirected');
  const done = await test.registry.completeSignIn(callback!);
  expect(done).toMatchObject({ serverId: 'notes', state: { status: 'connected' } });
  return test;
}

describe('OAuth through the registry', () => {
  it('signs in (DCR, PKCE, resource) and calls a tool with the token', async () => {
    const server = await oauthServer();
    const { registry, secrets } = await signedIn(server);
    const result = await registry.callTool('notes', 'whoami', {});
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('authorized as') as string });
    expect(server.stats.registrations).toBe(1);
    expect(server.stats.tokenRequests[0]).toMatchObject({ grantType: 'authorization_code', resource: server.url });
    // Everything OAuth keeps is in the vault, under this server.
    expect([...secrets.values.keys()].map((k) => k.split('\u0000')[2]).sort()).toEqual([
      'oauth-client',
      'oauth-discovery',
      'oauth-tokens',
    ]);
  });

  it('refreshes an expired token on the next call instead of asking for a sign-in', async () => {
    const server = await oauthServer();
    const { registry } = await signedIn(server);
    server.expireAccessTokens();
    const result = await registry.callTool('notes', 'add', { a: 2, b: 3 });
    expect(result.content).toEqual([{ type: 'text', text: '2+3=5' }]);
    expect(server.stats.tokenRequests.filter((r) => r.grantType === 'refresh_token')).toHaveLength(1);
    expect(server.stats.authorizeRequests).toBe(1);
  });

  it('refreshes before expiry, and two tabs sharing the vault refresh only once', async () => {
    const server = await oauthServer({ accessTokenTtlSeconds: 90 });
    const first = await signedIn(server);
    // Two tabs on one vault and one lock manager, 80 s later: the token expires within the refresh margin.
    const later = () => Date.now() + 80_000;
    const locks = createLocalLocks();
    const tabs = [
      oauthRegistry({ secrets: first.secrets, locks, now: later }),
      oauthRegistry({ secrets: first.secrets, locks, now: later }),
    ];
    for (const tab of tabs)
      await tab.registry.register({ id: 'notes', name: 'Notes', url: server.url, auth: { kind: 'oauth' } }, 'user');
    const states = await Promise.all(tabs.map((tab) => tab.registry.connect('notes')));
    expect(states.map((s) => s.status)).toEqual(['connected', 'connected']);
    expect(server.stats.tokenRequests.filter((r) => r.grantType === 'refresh_token')).toHaveLength(1);
    expect(server.stats.authorizeRequests).toBe(1);
  });

  it('turns into needs-auth when the refresh token is revoked, and keeps its tools listed', async () => {
    const server = await oauthServer();
    const { registry } = await signedIn(server);
    server.revokeAll();
    const result = await registry.callTool('notes', 'whoami', {});
    expect(result.failure?.kind).toBe('auth-required');
    expect(registry.get('notes')?.state.status).toBe('needs-auth');
    expect(registry.tools(['notes']).map((t) => t.toolName)).toEqual(expect.arrayContaining(['whoami', 'add']));
  });

  it('rejects a callback with a wrong state, and one where the person declined', async () => {
    const server = await oauthServer();
    const { registry } = oauthRegistry();
    await registry.register({ id: 'notes', name: 'Notes', url: server.url, auth: { kind: 'oauth' } }, 'user');
    let callback: SignInCallback | undefined;
    await registry.signIn('notes', async (url) => void (callback = await approve(url)));
    await expect(registry.completeSignIn({ ...callback!, state: 'forged' })).rejects.toThrow(
      'does not belong to any sign-in in progress',
    );
    await expect(
      registry.completeSignIn({ state: callback!.state, error: 'access_denied', errorDescription: 'The user said no' }),
    ).rejects.toThrow('Sign-in to Notes did not complete: The user said no.');
    expect(server.stats.tokenRequests).toHaveLength(0);
    expect(registry.get('notes')?.state.status).not.toBe('connected');
  });

  it('signs in when the answer names its authorization server (RFC 9207)', async () => {
    const server = await oauthServer({ namesIssuer: true });
    const { registry } = await signedIn(server);
    expect(server.stats.authorizations).toHaveLength(1);
    expect((await registry.callTool('notes', 'whoami', {})).isError).toBeFalsy();
  });

  it.each([
    ['names another authorization server', { namesIssuer: true }, 'https://evil.example', 'says it comes from'],
    ['names none though its server always does', { namesIssuer: true }, undefined, 'does not say which'],
    ['names another server where naming is optional', {}, 'https://evil.example', 'says it comes from'],
  ] as const)('refuses an answer that %s (OAuth mix-up), exchanging no code', async (_case, options, iss, message) => {
    const server = await oauthServer(options);
    const { registry } = oauthRegistry();
    await registry.register({ id: 'notes', name: 'Notes', url: server.url, auth: { kind: 'oauth' } }, 'user');
    let callback: SignInCallback | undefined;
    await registry.signIn('notes', async (url) => void (callback = await approve(url)));
    const { iss: _sent, ...rest } = callback!;
    const error = await registry.completeSignIn({ ...rest, ...(iss ? { iss } : {}) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toContain(`The sign-in answer for Notes ${message}`);
    expect((error as Error).message).toContain(server.issuer);
    expect(server.stats.tokenRequests).toHaveLength(0);
    // The sign-in in progress is over: the genuine answer arriving after is not taken either.
    await expect(registry.completeSignIn(callback!)).rejects.toThrow('does not belong to any sign-in in progress');
    expect(registry.get('notes')?.state.status).not.toBe('connected');
  });

  it('does not send the person to sign in where the metadata names another issuer than its own address (RFC 8414)', async () => {
    // A server whose authorization server's metadata claims to be an honest one: the person would sign in there, the
    // answer would name it, and the code (and PKCE verifier) would go to this server's own token endpoint.
    const requests: string[] = [];
    const origin = await handWrittenServer((req, res, origin) => {
      requests.push(`${req.method} ${req.url}`);
      const json = (status: number, body: unknown) =>
        void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url?.startsWith('/.well-known/oauth-protected-resource'))
        json(200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
      else if (req.url?.startsWith('/.well-known/oauth-authorization-server'))
        json(200, {
          issuer: 'https://as-honest.example',
          authorization_endpoint: 'https://as-honest.example/authorize',
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
        });
      else if (req.url === '/register')
        json(201, { client_id: 'c1', redirect_uris: ['http://127.0.0.1:5173/oauth/callback'] });
      else return false;
      return true;
    });
    const { registry } = oauthRegistry();
    await registry.register({ id: 'liar', name: 'Liar', url: `${origin}/mcp`, auth: { kind: 'oauth' } }, 'user');
    const sentTo: URL[] = [];
    const error = await registry.signIn('liar', (to) => void sentTo.push(to)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toContain(
      "Sign-in to Liar could not start: the authorization server's metadata names another issuer (https://as-honest.example)",
    );
    expect(sentTo).toEqual([]);
    expect(requests.filter((r) => r.startsWith('POST /token'))).toEqual([]);
  });

  it.each([
    [
      'names a different resource',
      (origin: string) =>
        JSON.stringify({ resource: 'https://elsewhere.example/mcp', authorization_servers: [origin] }),
      'does not match',
    ],
    ['is malformed', () => '{ "resource": ', ''],
  ])(
    'reports protected-resource metadata that %s with a clear error, never sending a token',
    async (_case, body, message) => {
      const requests: string[] = [];
      const origin = await handWrittenServer((req, res, origin) => {
        requests.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
        if (!req.url?.startsWith('/.well-known/oauth-protected-resource')) return false;
        res.writeHead(200, { 'content-type': 'application/json' }).end(body(origin));
        return true;
      });
      const { registry } = oauthRegistry();
      await registry.register({ id: 'odd', name: 'Odd', url: `${origin}/mcp`, auth: { kind: 'oauth' } }, 'user');
      const state = await registry.connect('odd');
      expect(state.status).not.toBe('connecting');
      expect(state.status).not.toBe('connected');
      const error = await registry.signIn('odd', () => undefined).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OAuthFlowError);
      expect((error as Error).message).toContain(message);
      expect(requests.every((r) => !r.includes('Bearer'))).toBe(true);
    },
  );

  it('signing out forgets tokens and registration', async () => {
    const server = await oauthServer();
    const { registry, secrets } = await signedIn(server);
    await registry.signOut('notes');
    expect([...secrets.values.keys()].filter((k) => k.startsWith(`${TEST_PROFILE}\u0000notes\u0000oauth`))).toEqual([]);
    expect((await registry.connect('notes')).status).toBe('needs-auth');
  });
});

describe('a background connect during a sign-in', () => {
  it('does not replace the state and verifier of the sign-in the person started', async () => {
    const server = await oauthServer();
    const { registry } = oauthRegistry();
    await registry.register({ id: 'notes', name: 'Notes', url: server.url, auth: { kind: 'oauth' } }, 'user');
    let callback: SignInCallback | undefined;
    await registry.signIn('notes', async (url) => void (callback = await approve(url)));
    expect((await registry.connect('notes')).status).toBe('needs-auth'); // e.g. a turn starting meanwhile
    const done = await registry.completeSignIn(callback!);
    expect(done.state.status).toBe('connected');
  });
});
