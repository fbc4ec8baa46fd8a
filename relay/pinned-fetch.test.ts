import type { LookupAddress } from 'node:dns';
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../test/fixtures/listen-loopback';
import { startRelayServer } from './node-server';

const APP = 'http://127.0.0.1:4173';
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

/** A target on loopback that answers every request with "reached" and counts them. */
async function loopbackTarget() {
  const seen: string[] = [];
  const listener = await listenOnLoopback(
    createServer((req, res) => {
      seen.push(`${req.method} ${req.url} host=${req.headers.host}`);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('reached');
    }),
  );
  stops.push(listener.close);
  return { port: listener.port, seen };
}

/** A name whose first answer is a public address and every later one loopback: DNS rebinding. */
function rebindingLookup() {
  const asked: string[] = [];
  const lookup = async (hostname: string): Promise<LookupAddress[]> => {
    asked.push(hostname);
    return [{ address: asked.length === 1 ? '203.0.113.7' : '127.0.0.1', family: 4 }];
  };
  return { lookup, asked };
}

async function relayWith(lookup: (hostname: string) => Promise<LookupAddress[]>, allowPrivateTargets = false) {
  const relay = await startRelayServer({ port: 0, allowedOrigins: [APP], allowPrivateTargets, lookup });
  stops.push(relay.close);
  return relay;
}

describe('the Node relay connects only to addresses it checked (DNS rebinding)', () => {
  it('refuses a name that answers a public address to the check and loopback to the connection', async () => {
    const target = await loopbackTarget();
    const { lookup, asked } = rebindingLookup();
    const relay = await relayWith(lookup);
    const response = await fetch(`${relay.url}?url=${encodeURIComponent(`http://rebind.test:${target.port}/mcp`)}`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      error: 'relay_refused',
      reason: expect.stringContaining('rebind.test resolves to the loopback or private address 127.0.0.1') as string,
    });
    expect(asked.length).toBeGreaterThanOrEqual(2); // the check's lookup, then the connection's own
    expect(target.seen).toEqual([]);
  });

  it('refuses the same trick on /probe', async () => {
    const target = await loopbackTarget();
    const relay = await relayWith(rebindingLookup().lookup);
    const response = await fetch(`${relay.url}probe?url=${encodeURIComponent(`http://rebind.test:${target.port}/`)}`, {
      headers: { origin: APP },
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { reason: string }).reason).toContain('127.0.0.1');
    expect(target.seen).toEqual([]);
  });

  it('opens the connection to the address its lookup answered, with the name kept as the Host', async () => {
    const target = await loopbackTarget();
    // allowed here (a relay on a developer's machine); a name no real DNS knows, so only the relay's lookup reaches it
    const relay = await relayWith(async () => [{ address: '127.0.0.1', family: 4 }], true);
    const response = await fetch(`${relay.url}?url=${encodeURIComponent(`http://pinned.test:${target.port}/mcp`)}`, {
      headers: { origin: APP },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('reached');
    expect(target.seen).toEqual([`GET /mcp host=pinned.test:${target.port}`]);
  });
});
