import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOnLoopback, type LoopbackListener } from '../test/fixtures/listen-loopback';
import { startTestMcpServer, type TestMcpServer } from '../test/fixtures/test-mcp-server';
import { createRelayHandler, type RelayOptions } from './relay-handler';

const APP = 'http://127.0.0.1:4173';
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

async function mcpServer(cors: 'full' | 'none' = 'none'): Promise<TestMcpServer> {
  const server = await startTestMcpServer({ toolCount: 1, cors });
  stops.push(() => server.stop());
  return server;
}

/** A plain target whose answers a test writes itself. */
async function plainTarget(handle: Parameters<typeof createServer>[1]): Promise<LoopbackListener> {
  const listener = await listenOnLoopback(createServer(handle));
  stops.push(listener.close);
  return listener;
}

function relay(options: Partial<RelayOptions> = {}) {
  return createRelayHandler({ allowedOrigins: [APP], allowPrivateTargets: true, ...options });
}

function post(target: string, init: { origin?: string | null; body?: string; headers?: Record<string, string> } = {}) {
  const origin = init.origin === undefined ? APP : init.origin;
  return new Request(`http://relay.test/?url=${encodeURIComponent(target)}`, {
    method: 'POST',
    headers: {
      ...(origin ? { origin } : {}),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...init.headers,
    },
    body: init.body ?? INITIALIZE,
  });
}

async function reasonOf(response: Response, hasOrigin = true): Promise<string> {
  expect(response.status).toBe(403);
  if (hasOrigin) expect(response.headers.get('access-control-allow-origin')).not.toBeNull(); // The page can read why.
  const body = (await response.json()) as { error: string; reason: string };
  expect(body.error).toBe('relay_refused');
  return body.reason;
}

describe('the relay forwards', () => {
  it('an initialize to a server without CORS and answers with CORS for the calling origin, session header exposed', async () => {
    const server = await mcpServer('none');
    const response = await relay()(post(server.url, { headers: { cookie: 'a=b' } }));
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    const exposed = (response.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    for (const name of ['mcp-session-id', 'www-authenticate', 'mcp-protocol-version']) expect(exposed).toContain(name);
    expect(response.headers.get('mcp-session-id')).toBeTruthy();
    expect(await response.text()).toContain('test-mcp-server');
    const seen = server.requests.at(-1)?.headers ?? {};
    expect(seen.origin).toBeUndefined();
    expect(seen.cookie).toBeUndefined();
  });

  it('answers preflights itself, without asking the target', async () => {
    const server = await mcpServer('none');
    const response = await relay()(
      new Request(`http://relay.test/?url=${encodeURIComponent(server.url)}`, {
        method: 'OPTIONS',
        headers: {
          origin: APP,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,mcp-protocol-version,authorization',
        },
      }),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(response.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version');
    expect(response.headers.get('access-control-allow-methods')).toContain('DELETE');
    expect(server.requests).toHaveLength(0);
  });

  it('streams an SSE answer event by event, before the target ends it', async () => {
    let finish: () => void = () => undefined;
    const target = await plainTarget((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      finish = () => res.end('data: last\n\n');
    });
    const response = await relay()(post(`http://127.0.0.1:${target.port}/mcp`));
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: first\n\n'); // The target has not ended yet.
    finish();
    const rest = await new Response(
      new ReadableStream({
        pull: async (c) => {
          const { done, value } = await reader.read();
          if (done) c.close();
          else c.enqueue(value);
        },
      }),
    ).text();
    expect(rest).toContain('data: last');
  });

  it('follows a redirect within the target origin', async () => {
    const target = await plainTarget((req, res) => {
      if (req.url === '/old') return void res.writeHead(307, { location: '/new' }).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"at":"new"}');
    });
    const response = await relay()(post(`http://127.0.0.1:${target.port}/old`));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ at: 'new' });
  });
});

describe('the relay refuses with 403 and a reason', () => {
  it('an Origin not in its list, and a request without one', async () => {
    const server = await mcpServer();
    expect(await reasonOf(await relay()(post(server.url, { origin: 'https://evil.example' })))).toMatch(
      /Origin not allowed: https:\/\/evil\.example/,
    );
    expect(await reasonOf(await relay()(post(server.url, { origin: null })), false)).toMatch(/Origin not allowed/);
    expect(server.requests).toHaveLength(0);
  });

  it('a target that is not http(s)', async () => {
    for (const target of ['file:///etc/passwd', 'ftp://example.com/x', 'javascript:alert(1)'])
      expect(await reasonOf(await relay()(post(target)))).toMatch(/must be http\(s\)/);
  });

  it('a loopback target unless private targets are allowed', async () => {
    const server = await mcpServer();
    const strict = relay({ allowPrivateTargets: false });
    expect(await reasonOf(await strict(post(server.url)))).toMatch(/loopback or private.*--allow-private-targets/);
    expect(await reasonOf(await strict(post(server.url.replace('127.0.0.1', 'localhost'))))).toMatch(/loopback/);
    expect(server.requests).toHaveLength(0);
    expect((await relay()(post(server.url))).status).toBe(200);
  });

  it('private addresses by literal and by DNS name', async () => {
    const strict = relay({ allowPrivateTargets: false, resolveHost: async () => ['10.1.2.3'] });
    for (const target of [
      'http://10.0.0.1/mcp',
      'http://192.168.1.1/',
      'http://169.254.169.254/',
      'http://[::1]/',
      'http://[fd00::1]/',
      'http://[::ffff:127.0.0.1]/',
    ])
      expect(await reasonOf(await strict(post(target)))).toMatch(/loopback or private/);
    expect(await reasonOf(await strict(post('https://intranet.example/mcp')))).toMatch(/resolves to .* 10\.1\.2\.3/);
  });

  it('a redirect to another origin, and a same-origin redirect whose name now resolves to a private address', async () => {
    const target = await plainTarget(
      (_req, res) => void res.writeHead(302, { location: 'https://elsewhere.example/' }).end(),
    );
    expect(await reasonOf(await relay()(post(`http://127.0.0.1:${target.port}/`)))).toMatch(
      /redirected to another origin/,
    );
    // DNS rebinding: the name is public on the first hop and private on the second; each hop is checked again.
    const answers = [['93.184.216.34'], ['10.0.0.7']];
    const rebinding = relay({
      allowPrivateTargets: false,
      resolveHost: async () => answers.shift() ?? ['10.0.0.7'],
      fetch: async () => new Response(null, { status: 307, headers: { location: '/next' } }),
    });
    expect(await reasonOf(await rebinding(post('https://rebind.example/mcp')))).toMatch(/10\.0\.0\.7/);
  });

  it('a target that does not start its answer in time gets a 504 naming the wait, not a hung request', async () => {
    let started = 0;
    const silent = await plainTarget(() => void started++); // Never answers.
    const response = await relay({ answerTimeoutMs: 200 })(post(`http://127.0.0.1:${silent.port}/`));
    expect(response.status).toBe(504);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(await response.json()).toEqual({
      error: 'target_unreachable',
      reason: `the target http://127.0.0.1:${silent.port} sent no answer within 0.2 s`,
    });
    expect(started).toBe(1);
  });

  it('a body over the size limit, declared or streamed', async () => {
    const server = await mcpServer();
    const small = relay({ maxBodyBytes: 64 });
    expect(await reasonOf(await small(post(server.url)))).toMatch(/over the relay's limit of 64 bytes/);
    const streamed = new Request(`http://relay.test/?url=${encodeURIComponent(server.url)}`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json' },
      body: new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('x'.repeat(100))), c.close()) }),
      duplex: 'half',
    } as RequestInit);
    expect(await reasonOf(await small(streamed))).toMatch(/over the relay's limit/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('the relay log', () => {
  it('names method, target and status, never bodies, queries or secret header values', async () => {
    const server = await mcpServer();
    const lines: string[] = [];
    const response = await relay({ log: (line) => lines.push(line) })(
      post(`${server.url}?api_key=query-secret`, {
        headers: { authorization: 'Bearer token-secret', 'x-api-key': 'header-secret' },
      }),
    );
    expect(response.status).toBe(200);
    await response.text();
    expect(lines).toEqual([`POST http://127.0.0.1:${server.port}/mcp -> 200`]);
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer token-secret'); // Forwarded, not logged.
  });
});
