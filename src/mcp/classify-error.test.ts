import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { toConnectionError } from './classify-error';

const context = { serverUrl: 'https://mcp.example.com/mcp', appOrigin: 'https://app.example', hasAnswered: true };
/** The message the SDK's transport throws for a POST answered with this status and body. */
const posted = (status: number, body: string) =>
  toConnectionError(new StreamableHTTPError(status, `Error POSTing to endpoint: ${body}`), context).message;

describe('an HTTP error keeps what the server said in its body', () => {
  it('quotes a JSON-RPC error message, a JSON error and plain text, on one line', () => {
    expect(posted(400, '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Bad Request: no session"},"id":null}')).toBe(
      'The server answered HTTP 400: it said “Bad Request: no session”.',
    );
    expect(posted(503, '{"error":"maintenance until 14:00"}')).toBe(
      'The server answered HTTP 503: the server failed; try again later; it said “maintenance until 14:00”.',
    );
    expect(posted(500, 'Traceback:\n  KeyError: city')).toBe(
      'The server answered HTTP 500: the server failed; try again later; it said “Traceback: KeyError: city”.',
    );
  });

  it("quotes an OAuth-style error's description rather than its code", () => {
    expect(posted(400, '{"error":"invalid_token","error_description":"the token expired"}')).toBe(
      'The server answered HTTP 400: it said “the token expired”.',
    );
  });

  it("quotes only a POST's body, not the SDK's own words about a stream", () => {
    const sse = toConnectionError(new StreamableHTTPError(500, 'Failed to open SSE stream: Server Broke'), context);
    expect(sse.message).toBe('The server answered HTTP 500: the server failed; try again later.');
  });

  it('says nothing more for an HTML page, an empty body or a body that only repeats the status name', () => {
    const plain = 'The server answered HTTP 502: the server failed; try again later.';
    expect(posted(502, '<html><body><h1>502 Bad Gateway</h1></body></html>')).toBe(plain);
    expect(posted(502, '')).toBe(plain);
    expect(posted(502, 'Bad Gateway')).toBe(plain);
    expect(posted(404, '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Not found"},"id":null}')).toBe(
      'The server answered HTTP 404: nothing at this URL speaks MCP; check the path (often /mcp).',
    );
  });

  it('cuts a long body at 200 characters', () => {
    const message = posted(500, 'x'.repeat(5_000));
    expect(message).toContain(`it said “${'x'.repeat(200)}…”`);
    expect(message.length).toBeLessThan(300);
  });
});
