import { McpProtocolError } from '../domain/mcp-errors';
import type { ServerConfig } from '../domain/server-config';
import { withTimeout } from './async-limits';
import { openConnection, type OpenConnection, type TransportKind } from './connect';
import { guardedFetch } from './network';
import { withBearerRefresh } from './oauth-session';
import { fetchFor } from './relay-client';
import type { ServerConnectionDeps } from './server-connection-deps';

/** What a dialed connection tells its ServerConnection, and what it reads from it. */
export interface DialHooks {
  /** The transport that worked last time, tried first. */
  readonly lastKind: () => TransportKind | undefined;
  /** A request or stream failed at the network level. */
  readonly onNetworkFailure: () => void;
  /** The server answered (a later failure is then not its CORS). */
  readonly onResponse: () => void;
  /** The server said its tools changed (tools/list_changed). */
  readonly onToolsChanged: () => void;
  /** Its optional stream was refused for want of a connection to spare: the server's notifications will not arrive. */
  readonly onStreamRefused: () => void;
  /** Reports a failed close (best-effort) of a connection dropped at `when`. */
  readonly closeFailed: (when: string) => (error: unknown) => void;
}

/**
 * Opens a connection as the config says: the vault's headers, the relay if it goes through one, a fetch that guards
 * secrets and notices network failures, OAuth with a refresh on rejection, the transport, all within the connect time.
 */
export async function dialServer(
  config: ServerConfig,
  deps: ServerConnectionDeps,
  hooks: DialHooks,
): Promise<OpenConnection> {
  const headers = await deps.readHeaders(config);
  const serverOrigin = new URL(config.url).origin;
  const relayUrl = deps.relayUrl?.();
  const guarded = guardedFetch(fetchFor(config.viaRelay, deps.fetch, relayUrl, deps.logger), {
    serverOrigin,
    secretHeaders: Object.keys(headers).map((h) => h.toLowerCase()),
    onNetworkFailure: () => hooks.onNetworkFailure(),
    onResponse: () => hooks.onResponse(),
  });
  const session = config.auth.kind === 'oauth' ? deps.oauth?.(config) : undefined;
  const fetch = session
    ? withBearerRefresh(guarded, serverOrigin, (used) => session.refreshAfterRejection(used, guarded))
    : guarded;
  await session?.ensureFresh(guarded);
  const authProvider = session?.provider;
  const lastKind = hooks.lastKind();
  const streams = streamBudgetFor(config, relayUrl, deps, () => hooks.onStreamRefused());
  const opening = openConnection({
    url: new URL(config.url),
    preference: config.transport,
    ...(lastKind ? { lastKind } : {}),
    headers,
    fetch,
    ...(authProvider ? { authProvider } : {}),
    makeClient: () => deps.makeClient(() => hooks.onToolsChanged()),
    ...(streams ? { streams } : {}),
  });
  return withTimeout(opening, deps.timing.connectMs, () => {
    void opening.then((late) => late.client.close()).catch(hooks.closeFailed('after a connect timed out'));
    return new McpProtocolError(
      -32001,
      `The server did not finish connecting within ${Math.round(deps.timing.connectMs / 1000)} s.`,
    );
  });
}

/**
 * The stream slots of the address the requests really go to (the relay's, for a server reached through it), when it is
 * plain http: browsers speak HTTP/2, which has no per-address connection limit to speak of, only over TLS.
 */
function streamBudgetFor(
  config: ServerConfig,
  relayUrl: string | undefined,
  deps: ServerConnectionDeps,
  onRefused: () => void,
) {
  let address: URL;
  try {
    address = new URL(config.viaRelay && relayUrl ? relayUrl : config.url);
  } catch {
    return undefined; // A relay URL that is not a URL fails the connect with its own message.
  }
  if (!deps.streamSlots || address.protocol !== 'http:') return undefined;
  return { slots: deps.streamSlots, origin: address.origin, onRefused };
}
