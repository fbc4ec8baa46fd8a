import { privateTargetProblem, type TargetPolicy } from './target-check';

/** Hop-by-hop headers (RFC 9110 section 7.6.1) and those that must not pass through a relay. */
const DROPPED_REQUEST_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'origin',
  'cookie',
  'referer',
  'content-length',
  'accept-encoding',
]);

/** Response headers dropped: hop-by-hop, the server's own CORS (the relay answers CORS itself), cookies, and the
 * encoding headers (the runtime's fetch decodes the body). */
function isDroppedResponseHeader(name: string): boolean {
  return (
    DROPPED_REQUEST_HEADERS.has(name) ||
    name === 'content-encoding' ||
    name === 'set-cookie' ||
    name.startsWith('access-control-')
  );
}

const MAX_REDIRECTS = 5;

export type Forwarded = { readonly response: Response } | { readonly refused: string };

export interface ForwardRequest {
  readonly target: URL;
  readonly method: string;
  readonly headers: Headers;
  readonly body: Uint8Array<ArrayBuffer> | undefined;
  readonly signal: AbortSignal;
  /** How long each hop may take to answer (its status and headers; a stream may then run as long as it runs). */
  readonly answerTimeoutMs: number;
}

/** The target sent no status and headers within the relay's answer limit. */
export class TargetTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms / 1000} s`);
    this.name = 'TargetTimeoutError';
  }
}

/** fetch with a limit on the wait for the answer's status and headers; the body is not limited by it. */
async function fetchAnswer(fetchFn: typeof fetch, url: URL, init: RequestInit, signal: AbortSignal, ms: number) {
  const waiting = new AbortController();
  const timer = setTimeout(() => waiting.abort(new TargetTimeoutError(ms)), ms);
  try {
    return await fetchFn(url, { ...init, signal: AbortSignal.any([signal, waiting.signal]) });
  } catch (error) {
    throw waiting.signal.aborted && !signal.aborted ? new TargetTimeoutError(ms) : error;
  } finally {
    clearTimeout(timer);
  }
}

/** The request headers sent on to the target. */
export function forwardedHeaders(incoming: Headers): Headers {
  const headers = new Headers();
  incoming.forEach((value, name) => {
    if (!DROPPED_REQUEST_HEADERS.has(name) && !name.startsWith('sec-') && !name.startsWith('x-forwarded-'))
      headers.set(name, value);
  });
  return headers;
}

/** The target's response headers without what must not pass, plus `extra` (the relay's CORS headers). */
export function relayedHeaders(upstream: Headers, extra: Record<string, string>): Headers {
  const headers = new Headers();
  upstream.forEach((value, name) => {
    if (!isDroppedResponseHeader(name)) headers.set(name, value);
  });
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return headers;
}

/** Where the relay writes one line about what it went on past (relay-handler's `log`). */
export type RelayLog = (line: string) => void;

/** Drops a body the relay does not pass on; a failure to drop it is logged with `what` (never the body). */
export async function discardBody(body: ReadableStream | null | undefined, log: RelayLog, what: string): Promise<void> {
  await body?.cancel().catch((error: unknown) => {
    log(`${what}: discarding the body failed (${error instanceof Error ? error.name : 'unknown error'})`);
  });
}

/**
 * Sends the request to the target, following redirects only within the target's origin (each hop checked again
 * against the private-address policy). The response body is the target's stream, untouched.
 */
export async function forward(
  request: ForwardRequest,
  policy: TargetPolicy,
  fetchFn: typeof fetch,
  log: RelayLog = () => undefined,
): Promise<Forwarded> {
  let url = request.target;
  let method = request.method;
  let body = request.body;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const problem = await privateTargetProblem(url, policy);
    if (problem) return { refused: problem };
    const headers = new Headers(request.headers);
    if (!body) headers.delete('content-type');
    const response = await fetchAnswer(
      fetchFn,
      url,
      { method, headers, ...(body ? { body } : {}), redirect: 'manual' },
      request.signal,
      request.answerTimeoutMs,
    );
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) return { response };
    await discardBody(response.body, log, `redirect from ${url.origin}${url.pathname}`);
    const next = new URL(location, url);
    if (next.origin !== request.target.origin)
      return {
        refused: `the target redirected to another origin (${next.origin}); the relay follows only same-origin redirects`,
      };
    // 301/302 turn a POST into a GET (as browsers do); 303 turns anything but HEAD into a GET; 307/308 keep both.
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      if (method !== 'HEAD') method = 'GET';
      body = undefined;
    }
    url = next;
  }
  return { refused: `the target redirected more than ${MAX_REDIRECTS} times` };
}
