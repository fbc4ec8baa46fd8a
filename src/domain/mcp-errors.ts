import { AppError } from './errors';

/** Headers a cross-origin MCP server must allow and expose for a browser client. */
export const CORS_ALLOW_HEADERS = [
  'mcp-protocol-version',
  'mcp-session-id',
  'authorization',
  'content-type',
  'last-event-id',
] as const;
export const CORS_EXPOSE_HEADERS = ['mcp-session-id', 'WWW-Authenticate'] as const;

/** The browser got no response at all from a cross-origin server: almost always CORS (or the server is down). */
export class CorsBlockedError extends AppError {
  readonly kind = 'cors';
  constructor(
    readonly appOrigin: string,
    readonly serverUrl: string,
    /** What the relay's probe found missing (one line each); set when a relay could check the server. */
    readonly diagnosis?: readonly string[],
  ) {
    super(
      diagnosis
        ? `${new URL(serverUrl).origin} does not allow this app's origin (CORS), as the relay's check found: ${diagnosis.join('; ')}. ` +
            'Connect through the relay to use it anyway, or ask its operator to fix the CORS headers.'
        : `No response from ${new URL(serverUrl).origin}. Either it is not running, or it does not allow this app's origin (CORS). ` +
            `The server must answer with Access-Control-Allow-Origin: ${appOrigin} (or *), allow the headers ${CORS_ALLOW_HEADERS.join(', ')}, ` +
            `allow the methods GET, POST, DELETE, and expose ${CORS_EXPOSE_HEADERS.join(', ')}.`,
    );
    this.name = 'CorsBlockedError';
  }
}

/** What an unreachable server's error adds while reconnects are scheduled, and once they have run out. */
export const RECONNECTING = 'the connection was lost. The app will keep trying to reconnect.';
export const RECONNECTS_GAVE_UP =
  'the connection was lost, and the app stopped trying to reconnect. It tries again when a thread that uses it starts a turn or calls one of its tools, or press Connect.';

/** The server was reachable before (or is same-origin) and now does not answer. */
export class ServerUnreachableError extends AppError {
  readonly kind = 'unreachable';
  constructor(
    readonly serverUrl: string,
    readonly detail?: string,
  ) {
    super(`${new URL(serverUrl).origin} does not answer${detail ? `; ${detail}` : '.'}`);
    this.name = 'ServerUnreachableError';
  }
}

/** Whether a server's error says the app stopped trying to reconnect to it (its retries ran out). */
export function hasStoppedReconnecting(error: unknown): boolean {
  return error instanceof ServerUnreachableError && error.detail === RECONNECTS_GAVE_UP;
}

/** An unreachable server's error restated as its reconnects go on or run out; undefined for others (a relay's diagnosis). */
export function withReconnectNote(error: unknown, willTry: boolean): ServerUnreachableError | undefined {
  if (!(error instanceof ServerUnreachableError) || ![undefined, RECONNECTING].includes(error.detail)) return undefined;
  return new ServerUnreachableError(error.serverUrl, willTry ? RECONNECTING : RECONNECTS_GAVE_UP);
}

/** The server answered with an HTTP error status. */
export class McpHttpError extends AppError {
  readonly kind = 'http';
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`The server answered HTTP ${status}${detail ? `: ${detail}` : ''}.`);
    this.name = 'McpHttpError';
  }
}

/** The server wants credentials it did not get (401), or the OAuth sign-in must be done again. */
export class AuthRequiredError extends AppError {
  readonly kind = 'auth-required';
  /** Nothing more is known than that credentials are wanted: the servers manager words it for the server's auth. */
  readonly isBare: boolean;
  constructor(detail?: string) {
    super(detail ?? 'The server requires authorization. Add a token or sign in, then connect again.');
    this.name = 'AuthRequiredError';
    this.isBare = detail === undefined;
  }
}

/** The server answered, but not with MCP: an HTML page, invalid JSON, an unexpected content type. */
export class InvalidServerResponseError extends AppError {
  readonly kind = 'invalid-response';
  constructor(detail: string) {
    super(
      `The server's answer is not MCP (${detail}). Check that the URL points at the MCP endpoint, which often ends in /mcp or /sse.`,
    );
    this.name = 'InvalidServerResponseError';
  }
}

/** The server answered a JSON-RPC error. */
export class McpProtocolError extends AppError {
  readonly kind = 'protocol';
  constructor(
    readonly code: number,
    detail: string,
  ) {
    super(detail);
    this.name = 'McpProtocolError';
  }
}

/** A sign-in could not be completed: wrong state, the person declined, the token endpoint failed. */
export class OAuthFlowError extends AppError {
  readonly kind = 'oauth';
  constructor(detail: string) {
    super(detail);
    this.name = 'OAuthFlowError';
  }
}

export type McpConnectionError =
  | CorsBlockedError
  | ServerUnreachableError
  | McpHttpError
  | AuthRequiredError
  | InvalidServerResponseError
  | McpProtocolError
  | RelayUnreachableError
  | NotARelayError
  | RelayRefusedError;

/** The MCP client code (loaded on first connection) could not be loaded: offline, or the app was redeployed. */
export class McpClientUnavailableError extends AppError {
  readonly kind = 'client-unavailable';
  constructor(detail: string) {
    super(`The MCP client could not be loaded (${detail}). Check the network, or reload the page.`);
    this.name = 'McpClientUnavailableError';
  }
}

/** The relay set for this server does not answer (down, wrong address, or blocked by the page's security policy). */
export class RelayUnreachableError extends AppError {
  readonly kind = 'relay-unreachable';
  constructor(readonly relayUrl: string) {
    super(`The relay at ${relayUrl} does not answer. Check the Relay URL in Settings and that the relay is running.`);
    this.name = 'RelayUnreachableError';
  }
}

/** Something answered at the relay URL, but not a relay (no relay marker on its answer). */
export class NotARelayError extends AppError {
  readonly kind = 'not-a-relay';
  constructor(readonly relayUrl: string) {
    super(
      `${relayUrl} answered, but it is not an MCP relay. Check the Relay URL in Settings (npm run relay serves one).`,
    );
    this.name = 'NotARelayError';
  }
}

/** The relay refused to forward (403): its reason, e.g. this origin is not allowed or the target is private. */
export class RelayRefusedError extends AppError {
  readonly kind = 'relay-refused';
  constructor(readonly reason: string) {
    super(`The relay refused the request: ${reason}.`);
    this.name = 'RelayRefusedError';
  }
}

/** A server is set to go through the relay, but no relay URL is configured. */
export class RelayNotSetError extends AppError {
  readonly kind = 'relay-not-set';
  constructor() {
    super(
      'This server is set to route through a relay, but no Relay URL is set. Set one in Settings, or switch "Route through relay" off.',
    );
    this.name = 'RelayNotSetError';
  }
}
