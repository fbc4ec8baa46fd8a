import { afterEach, describe, expect, it } from 'vitest';
import { startTestMcpServer, type CorsQuirk } from '../test/fixtures/test-mcp-server';
import { startRelayServer } from './node-server';
import type { ProbeReport } from './probe';

const APP = 'http://127.0.0.1:4173';
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

/** Probes a test server with the given CORS quirk through a relay on a real Node HTTP server. */
async function probe(quirk: CorsQuirk, allowPrivateTargets = true): Promise<Response> {
  const server = await startTestMcpServer({ cors: quirk });
  stops.push(() => server.stop());
  const relay = await startRelayServer({ port: 0, allowedOrigins: [APP], allowPrivateTargets });
  stops.push(relay.close);
  return fetch(`${relay.url}probe?url=${encodeURIComponent(server.url)}`, { headers: { origin: APP } });
}

async function reportOf(quirk: CorsQuirk): Promise<ProbeReport> {
  const response = await probe(quirk);
  expect(response.status).toBe(200);
  expect(response.headers.get('access-control-allow-origin')).toBe(APP);
  return (await response.json()) as ProbeReport;
}

describe('/probe names exactly the CORS pieces a server lacks', () => {
  it('a server without any CORS: no Access-Control-Allow-Origin, no allowed headers, no DELETE', async () => {
    const report = await reportOf('none');
    expect(report.corsOk).toBe(false);
    expect(report.preflight?.allowOrigin).toBe('missing');
    expect(report.preflight?.missingAllowHeaders).toEqual([
      'content-type',
      'mcp-protocol-version',
      'mcp-session-id',
      'authorization',
      'last-event-id',
    ]);
    expect(report.preflight?.missingMethods).toEqual(['DELETE']);
    expect(report.initialize?.missingExposedHeaders).toEqual(['mcp-session-id']);
    expect(report.lacks.join('\n')).toMatch(/no Access-Control-Allow-Origin/);
  });

  it('a server that does not expose Mcp-Session-Id', async () => {
    const report = await reportOf('no-expose-session');
    expect(report.corsOk).toBe(false);
    expect(report.lacks).toEqual(['the response does not expose mcp-session-id']);
  });

  it('a server that does not allow the mcp-protocol-version request header', async () => {
    const report = await reportOf('no-protocol-version');
    expect(report.lacks).toEqual(['the preflight does not allow the request headers mcp-protocol-version']);
  });

  it('a server with full CORS lacks nothing', async () => {
    const report = await reportOf('full');
    expect(report).toMatchObject({ reachable: true, corsOk: true, lacks: [] });
  });

  it('a loopback target is refused without --allow-private-targets', async () => {
    const response = await probe('none', false);
    expect(response.status).toBe(403);
    expect(((await response.json()) as { reason: string }).reason).toMatch(/loopback or private/);
  });
});
