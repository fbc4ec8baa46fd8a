// HTTP plumbing of the fake Anthropic API: CORS as the real API answers it, JSON and error bodies, request reading.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody, type ApiErrorType } from './fake-anthropic-protocol';

const ALLOWED_HEADERS = [
  'accept',
  'content-type',
  'x-api-key',
  'authorization',
  'anthropic-version',
  'anthropic-beta',
  'anthropic-dangerous-direct-browser-access',
  'user-agent',
  'traceparent',
  'tracestate',
  'baggage',
  'x-stainless-lang',
  'x-stainless-package-version',
  'x-stainless-os',
  'x-stainless-arch',
  'x-stainless-runtime',
  'x-stainless-runtime-version',
  'x-stainless-retry-count',
  'x-stainless-timeout',
  'x-stainless-helper',
  'x-stainless-helper-method',
];
const EXPOSED_HEADERS = ['request-id', 'retry-after', 'retry-after-ms', 'x-should-retry', 'anthropic-organization-id'];
const ERROR_STATUS: Record<ApiErrorType, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

export function corsHeaders(req: IncomingMessage): Record<string, string> {
  // Also allow any x-stainless-*/anthropic-* header a newer SDK adds, as the real API does.
  const requested = (req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  const extra = requested.filter((name) => /^(x-stainless-|anthropic-)/.test(name) && !ALLOWED_HEADERS.includes(name));
  return {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': [...ALLOWED_HEADERS, ...extra].join(', '),
    'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
    'access-control-max-age': '600',
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export const sendError = (
  res: ServerResponse,
  requestId: string,
  type: ApiErrorType,
  message: string,
  headers: Record<string, string> = {},
) => sendJson(res, ERROR_STATUS[type], errorBody(type, message, requestId), headers);

export function flatHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
