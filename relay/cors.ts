/** Marks every answer of the relay (its own and forwarded ones), so the app can tell a relay from another server. */
export const RELAY_MARKER_HEADER = 'X-Mcp-Relay';

/** Response headers a browser client of an MCP server has to read. */
export const EXPOSED_HEADERS = ['Mcp-Session-Id', 'WWW-Authenticate', 'Mcp-Protocol-Version', RELAY_MARKER_HEADER];

/** Request headers the app sends to MCP and OAuth servers. */
export const ALLOWED_REQUEST_HEADERS = [
  'content-type',
  'accept',
  'authorization',
  'mcp-protocol-version',
  'mcp-session-id',
  'last-event-id',
];

export const ALLOWED_METHODS = ['GET', 'POST', 'DELETE', 'OPTIONS'];

/** The CORS headers of an answer to `origin`. */
export function corsHeaders(origin: string): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(', '),
    Vary: 'Origin',
    [RELAY_MARKER_HEADER]: '1',
  };
}

/** The relay's own answer to a preflight: the methods it relays, and the headers the page asks for. */
export function preflightResponse(origin: string, requestedHeaders: string | null): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(origin),
      'Access-Control-Allow-Methods': ALLOWED_METHODS.join(', '),
      'Access-Control-Allow-Headers': requestedHeaders?.trim() || ALLOWED_REQUEST_HEADERS.join(', '),
      'Access-Control-Max-Age': '600',
    },
  });
}

/** A JSON answer of the relay itself (a refusal, a probe report), readable by the calling page. */
export function jsonResponse(status: number, body: unknown, origin: string | null): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      ...(origin ? corsHeaders(origin) : { [RELAY_MARKER_HEADER]: '1' }),
    },
  });
}

/** A 403 naming why the relay will not forward this request. */
export function refusal(reason: string, origin: string | null, status = 403): Response {
  return jsonResponse(status, { error: 'relay_refused', reason }, origin);
}
