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
  ) {
    super(
      `No response from ${new URL(serverUrl).origin}. Either it is not running, or it does not allow this app's origin (CORS). ` +
        `The server must answer with Access-Control-Allow-Origin: ${appOrigin} (or *), allow the headers ${CORS_ALLOW_HEADERS.join(', ')}, ` +
        `allow the methods GET, POST, DELETE, and expose ${CORS_EXPOSE_HEADERS.join(', ')}.`,
    );
    this.name = 'CorsBlockedError';
  }
}

/** The server was reachable before (or is same-origin) and now does not answer. */
export class ServerUnreachableError extends AppError {
  readonly kind = 'unreachable';
  constructor(readonly serverUrl: string) {
    super(
      `${new URL(serverUrl).origin} does not answer; the connection was lost. The app will keep trying to reconnect.`,
    );
    this.name = 'ServerUnreachableError';
  }
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
  constructor(detail = 'The server requires authorization. Add a token or sign in, then connect again.') {
    super(detail);
    this.name = 'AuthRequiredError';
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
  | McpProtocolError;

/** The MCP client code (loaded on first connection) could not be loaded: offline, or the app was redeployed. */
export class McpClientUnavailableError extends AppError {
  readonly kind = 'client-unavailable';
  constructor(detail: string) {
    super(`The MCP client could not be loaded (${detail}). Check the network, or reload the page.`);
    this.name = 'McpClientUnavailableError';
  }
}
