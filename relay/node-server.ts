import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { lookupAll, pinnedFetch, type LookupAll } from './pinned-fetch';
import { createRelayHandler, type FetchHandler, type RelayOptions } from './relay-handler';

export interface RelayServer {
  /** http://HOST:PORT/ */
  readonly url: string;
  readonly port: number;
  readonly close: () => Promise<void>;
}

/**
 * Runs the relay's fetch handler on a Node HTTP server; the response body is written chunk by chunk as it arrives.
 * Names are looked up with `lookup` (DNS by default) both for the check and for each connection, and each
 * connection goes to the addresses its own lookup checked (`pinnedFetch`).
 */
export async function startRelayServer(
  options: RelayOptions & { readonly host?: string; readonly port?: number; readonly lookup?: LookupAll },
): Promise<RelayServer> {
  const lookup = options.lookup ?? lookupAll;
  const handler = createRelayHandler({
    resolveHost: async (hostname) => (await lookup(hostname)).map((a) => a.address),
    fetch: pinnedFetch({ allowPrivateTargets: options.allowPrivateTargets ?? false, lookup }),
    ...options,
  });
  const server = createServer((req, res) => void serve(handler, req, res));
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8787, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/`,
    port,
    close: () => closeServer(server, sockets),
  };
}

async function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

async function serve(handler: FetchHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const aborter = new AbortController();
  res.once('close', () => aborter.abort());
  try {
    const response = await handler(toRequest(req, aborter.signal));
    res.writeHead(response.status, response.statusText, headerPairs(response.headers));
    res.flushHeaders(); // An SSE stream's headers go out before its first event.
    if (response.body) {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (aborter.signal.aborted) break;
        res.write(chunk);
      }
    }
    res.end();
  } catch {
    if (!res.headersSent) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'relay_failed', reason: 'the relay could not complete the request' }));
    } else res.destroy();
  }
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(`http://${req.headers.host ?? 'relay'}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  });
}

function headerPairs(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}
