import { logFailure, silentLogger, type Logger } from '../domain/logger';
import { AppError } from '../domain/errors';
import {
  CorsBlockedError,
  McpHttpError,
  NotARelayError,
  RelayNotSetError,
  RelayRefusedError,
  RelayUnreachableError,
  ServerUnreachableError,
} from '../domain/mcp-errors';
import type { FetchLike } from './network';

/** The header every answer of the relay carries (relay/cors.ts), so a relay can be told from another server. */
const RELAY_MARKER = 'x-mcp-relay';

/** The relay address of a target: `RELAY/?url=<encoded target>` (the relay's base path is kept). */
export function relayedUrl(relayUrl: string, target: string, path = ''): string {
  const base = new URL(relayUrl);
  base.pathname = `${base.pathname.replace(/\/+$/, '')}/${path}`;
  base.search = `?url=${encodeURIComponent(target)}`;
  return base.href;
}

/**
 * A fetch that sends every request (MCP, OAuth discovery, registration, token) through the relay: a relay that does
 * not answer, an answer that is not a relay's, and a relay's refusal each become a typed error.
 */
export function relayedFetch(base: FetchLike, relayUrl: string, logger: Logger = silentLogger): FetchLike {
  return async (input, init) => {
    const target = typeof input === 'string' ? input : input.href;
    let response: Response;
    try {
      response = await base(relayedUrl(relayUrl, target), init);
    } catch (error) {
      if (init?.signal?.aborted) throw error;
      throw new RelayUnreachableError(relayUrl);
    }
    if (!response.headers.has(RELAY_MARKER)) {
      await response.body
        ?.cancel()
        .catch(logFailure(logger, "Discarding the body of an answer that is not a relay's failed", { relayUrl }));
      throw new NotARelayError(relayUrl);
    }
    if (response.status === 403) {
      const reason = await relayReason(response.clone(), 'relay_refused');
      if (reason) throw new RelayRefusedError(reason);
    }
    // The relay's own answer that it could not reach the server, not an answer of the server's.
    if (response.status === 502 || response.status === 504) {
      const reason = await relayReason(response.clone(), 'target_unreachable');
      if (reason) throw new ServerUnreachableError(target, `the relay says: ${reason}`);
    }
    return response;
  };
}

/** How long the check of a relay waits for its answer. */
export const RELAY_CHECK_MS = 8000;

/**
 * Whether a relay answers at `relayUrl` and serves this page: it is asked to forward nothing (a relay answers that
 * with a refusal of its own, marked as a relay's), so no server is reached. An error says what is wrong.
 */
export async function checkRelay(
  relayUrl: string,
  fetchFn: FetchLike,
  logger: Logger = silentLogger,
  timeoutMs = RELAY_CHECK_MS,
): Promise<AppError | undefined> {
  try {
    // The empty target is refused either way (400); a refusal of this page's origin (403) is relayedFetch's error.
    // An address that takes the connection and never answers is as good as none: the check ends in seconds.
    const response = await relayedFetch(fetchFn, relayUrl, logger)('', { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel().catch(logFailure(logger, "Discarding the relay's answer to its check failed", {}));
    return undefined;
  } catch (error) {
    return error instanceof AppError ? error : new RelayUnreachableError(relayUrl);
  }
}

async function relayReason(response: Response, error: string): Promise<string | undefined> {
  try {
    const body = (await response.json()) as { error?: unknown; reason?: unknown };
    return body.error === error && typeof body.reason === 'string' ? body.reason.slice(0, 300) : undefined;
  } catch {
    return undefined;
  }
}

/** The fetch a server's requests use: through the relay when the server is routed so, else `base` itself. */
export function fetchFor(
  viaRelay: boolean,
  base: FetchLike,
  relayUrl: string | undefined,
  logger: Logger = silentLogger,
): FetchLike {
  if (!viaRelay) return base;
  if (!relayUrl)
    return () => {
      throw new RelayNotSetError();
    };
  return relayedFetch(base, relayUrl, logger);
}

const LOST_SESSION_HINT =
  'the server did not recognise the session; a server with sessions must expose Mcp-Session-Id to browsers (Access-Control-Expose-Headers), or be reached through a relay (Settings, Relay URL)';

/** What a failed connect knows for its diagnosis. */
export interface ConnectFailureContext {
  readonly serverUrl: string;
  readonly viaRelay: boolean;
  readonly appOrigin: string;
  readonly relayUrl: string | undefined;
  readonly fetch: FetchLike;
  /** This connection has connected before: a failure now is the server gone, not its CORS. */
  readonly hasConnectedBefore: boolean;
}

/**
 * A connect failure that CORS can cause (no answer; a request blocked after initialize; a 400 for a session id the
 * browser could not read) of a cross-origin server not routed through the relay: the relay's probe names what the
 * server lacks; without a relay, the likely CORS piece is named.
 */
export async function diagnoseConnectFailure(error: AppError, context: ConnectFailureContext): Promise<AppError> {
  if (context.viaRelay || context.hasConnectedBefore || new URL(context.serverUrl).origin === context.appOrigin)
    return error;
  const isLostSession = error instanceof McpHttpError && error.status === 400;
  if (error.kind !== 'cors' && error.kind !== 'unreachable' && !isLostSession) return error;
  const cors = new CorsBlockedError(context.appOrigin, context.serverUrl);
  if (context.relayUrl) return diagnoseCors(cors, context.relayUrl, context.fetch, error);
  if (error.kind === 'unreachable') return cors;
  return isLostSession ? new McpHttpError(400, LOST_SESSION_HINT) : error;
}

interface ProbeAnswer {
  readonly reachable?: boolean;
  readonly corsOk?: boolean;
  readonly lacks?: readonly unknown[];
}

/**
 * After a CORS-looking failure, asks the relay's /probe what the server lacks and returns a more exact error: the
 * missing CORS pieces, or that the server does not answer at all. A relay problem is returned as its own error.
 */
export async function diagnoseCors(
  error: CorsBlockedError,
  relayUrl: string,
  fetchFn: FetchLike,
  original: AppError = error,
): Promise<AppError> {
  let response: Response;
  try {
    response = await fetchFn(relayedUrl(relayUrl, error.serverUrl, 'probe'));
  } catch {
    return new RelayUnreachableError(relayUrl);
  }
  if (!response.headers.has(RELAY_MARKER)) return new NotARelayError(relayUrl);
  if (response.status === 403)
    return new RelayRefusedError((await relayReason(response, 'relay_refused')) ?? 'HTTP 403');
  let answer: ProbeAnswer;
  try {
    answer = (await response.json()) as ProbeAnswer;
  } catch {
    return new NotARelayError(relayUrl);
  }
  if (answer.reachable === false && original.kind !== 'http')
    return new ServerUnreachableError(error.serverUrl, 'it did not answer the relay either. Check that it is running.');
  const lacks = (answer.lacks ?? [])
    .filter((line): line is string => typeof line === 'string')
    .map((l) => l.slice(0, 200));
  return lacks.length > 0 ? new CorsBlockedError(error.appOrigin, error.serverUrl, lacks) : original;
}
