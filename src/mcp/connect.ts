import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { TransportPreference } from '../domain/server-config';
import type { FetchLike } from './network';
import { guardReplayedRequests } from './replay-guard';
import { withStreamBudget, type StreamBudget } from './stream-slots';

export type TransportKind = 'http' | 'sse';

export interface ConnectRequest {
  readonly url: URL;
  readonly preference: TransportPreference;
  /** Set after a successful auto connection, so the next one does not probe again. */
  readonly lastKind?: TransportKind;
  readonly headers: Record<string, string>;
  readonly fetch: FetchLike;
  readonly authProvider?: OAuthClientProvider;
  /** A fresh, fully configured Client (handlers set); one per attempt, since a failed connect closes it. */
  readonly makeClient: () => Client;
  /** Slots for long-lived streams to a plain-http address, shared by the app's connections (see stream-slots.ts). */
  readonly streams?: Omit<StreamBudget, 'mayRefuse'>;
}

export interface OpenConnection {
  readonly client: Client;
  readonly transport: Transport;
  readonly kind: TransportKind;
}

/** How often the SDK re-opens a dropped SSE stream before giving up (a server `retry:` field sets the delay). */
const RECONNECTION = {
  initialReconnectionDelay: 1000,
  maxReconnectionDelay: 10_000,
  reconnectionDelayGrowFactor: 1.5,
  maxRetries: 2,
};

/**
 * Connects with streamable HTTP, or legacy HTTP+SSE. In auto mode it follows the spec's backwards
 * compatibility rule: a 4xx (other than 401/403) to the initialize POST means an SSE-only server.
 */
export async function openConnection(request: ConnectRequest): Promise<OpenConnection> {
  const first = request.preference === 'auto' ? (request.lastKind ?? 'http') : request.preference;
  try {
    return await connectWith(first, request);
  } catch (error) {
    if (request.preference !== 'auto' || first !== 'http' || !isLegacyServerAnswer(error)) throw error;
    try {
      return await connectWith('sse', request);
    } catch {
      throw error; // The streamable-HTTP answer says more about a wrong URL than the SSE attempt does.
    }
  }
}

async function connectWith(kind: TransportKind, request: ConnectRequest): Promise<OpenConnection> {
  const requestInit: RequestInit = { headers: request.headers };
  // The streamable-HTTP GET stream is optional and may be refused; the legacy SSE stream is the connection itself.
  const fetch = request.streams
    ? withStreamBudget(request.fetch, { ...request.streams, mayRefuse: kind === 'http' })
    : request.fetch;
  const common = {
    requestInit,
    fetch,
    ...(request.authProvider ? { authProvider: request.authProvider } : {}),
  };
  const transport =
    kind === 'http'
      ? new StreamableHTTPClientTransport(request.url, { ...common, reconnectionOptions: RECONNECTION })
      : new SSEClientTransport(request.url, { ...common, eventSourceInit: { fetch } });
  const client = request.makeClient();
  // The client sees no server request twice: a resumed stream may replay ones already answered.
  await client.connect(guardReplayedRequests(transport));
  return { client, transport, kind };
}

/** How long closing a connection waits for the server to take the end of its session. */
const END_SESSION_WAIT_MS = 2_000;

/**
 * Tells a streamable-HTTP server its session is over (an HTTP DELETE; a 405 means it keeps sessions to itself), within
 * a short wait, before the connection is closed. A server that is down or slow is not waited for; nothing is thrown.
 */
export async function endSession(open: OpenConnection): Promise<void> {
  if (!(open.transport instanceof StreamableHTTPClientTransport) || !open.transport.sessionId) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, END_SESSION_WAIT_MS)));
  await Promise.race([open.transport.terminateSession().catch(() => undefined), waited]);
  clearTimeout(timer);
}

function isLegacyServerAnswer(error: unknown): boolean {
  return (
    error instanceof StreamableHTTPError &&
    error.code !== undefined &&
    error.code >= 400 &&
    error.code < 500 &&
    error.code !== 401 &&
    error.code !== 403
  );
}
