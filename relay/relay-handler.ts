import { corsHeaders, jsonResponse, preflightResponse, refusal } from './cors';
import { forward, forwardedHeaders, relayedHeaders, TargetTimeoutError, type RelayLog } from './forward';
import { probeTarget } from './probe';
import { parseTarget, privateConnectReason, type ResolveHost } from './target-check';

/** A standard fetch handler: what Node (relay/node-server.ts) and serverless/edge runtimes call per request. */
export type FetchHandler = (request: Request) => Promise<Response>;

export interface RelayOptions {
  /** Origins of the app allowed to use this relay (exact, e.g. https://agent.example.com). */
  readonly allowedOrigins: readonly string[];
  /** Lets targets on loopback and private addresses through (a relay on a developer's machine). Default false. */
  readonly allowPrivateTargets?: boolean;
  /** Largest request body forwarded, in bytes. Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /** How long a target may take to start its answer (status and headers), in ms. Default 30 s. */
  readonly answerTimeoutMs?: number;
  /** DNS lookup of a target's name, so names pointing at private addresses are refused too. */
  readonly resolveHost?: ResolveHost;
  readonly fetch?: typeof fetch;
  /** One line per request: method, target origin and path, status. Never bodies, queries or header values. */
  readonly log?: (line: string) => void;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
export const DEFAULT_ANSWER_TIMEOUT_MS = 30_000;

/**
 * The CORS relay: `?url=<target>` forwards the request and streams the answer back with CORS for the calling origin;
 * `/probe?url=<target>` reports which CORS pieces the target lacks. Keeps nothing between requests.
 */
export function createRelayHandler(options: RelayOptions): FetchHandler {
  const allowed = new Set(options.allowedOrigins);
  const policy = {
    allowPrivateTargets: options.allowPrivateTargets ?? false,
    ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
  };
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const fetchFn = options.fetch ?? fetch;
  const log = options.log ?? (() => undefined);

  return async (request) => {
    const origin = request.headers.get('origin');
    const url = new URL(request.url);
    // Preflights are answered by the relay itself; an origin it does not serve is refused on the real request,
    // where the page can read why.
    if (request.method === 'OPTIONS' && origin && request.headers.has('access-control-request-method'))
      return preflightResponse(origin, request.headers.get('access-control-request-headers'));
    if (!origin || !allowed.has(origin))
      return refusal(`Origin not allowed: ${origin ?? '(none)'}; start the relay with --allow-origin ORIGIN`, origin);
    const target = parseTarget(url.searchParams.get('url'));
    if (typeof target === 'string') return refusal(target, origin, target.includes('http(s)') ? 403 : 400);

    if (url.pathname.endsWith('/probe')) {
      const outcome = await probeTarget(target, origin, policy, fetchFn, request.signal, log);
      log(`probe ${target.origin}${target.pathname} -> ${'refused' in outcome ? 'refused' : 'reported'}`);
      return 'refused' in outcome ? refusal(outcome.refused, origin) : jsonResponse(200, outcome.report, origin);
    }

    const body = await readBody(request, maxBody, log);
    if (body === 'too-large') return refusal(`the request body is over the relay's limit of ${maxBody} bytes`, origin);
    let forwarded;
    try {
      forwarded = await forward(
        {
          target,
          method: request.method,
          headers: forwardedHeaders(request.headers),
          body,
          signal: request.signal,
          answerTimeoutMs: options.answerTimeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS,
        },
        policy,
        fetchFn,
        log,
      );
    } catch (error) {
      if (request.signal.aborted) throw error;
      const refused = privateConnectReason(error);
      if (refused) {
        log(`${request.method} ${target.origin}${target.pathname} -> refused`);
        return refusal(refused, origin);
      }
      const isSlow = error instanceof TargetTimeoutError;
      log(`${request.method} ${target.origin}${target.pathname} -> ${isSlow ? 'timed out' : 'no answer'}`);
      return jsonResponse(
        isSlow ? 504 : 502,
        {
          error: 'target_unreachable',
          reason: `the target ${target.origin} ${isSlow ? `sent ${error.message}` : 'does not answer'}`,
        },
        origin,
      );
    }
    if ('refused' in forwarded) {
      log(`${request.method} ${target.origin}${target.pathname} -> refused`);
      return refusal(forwarded.refused, origin);
    }
    const { response } = forwarded;
    log(`${request.method} ${target.origin}${target.pathname} -> ${response.status}`);
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: relayedHeaders(response.headers, corsHeaders(origin)),
    });
  };
}

/** The request body, or 'too-large' once it passes `limit` (a declared length is checked before reading). */
async function readBody(
  request: Request,
  limit: number,
  log: RelayLog,
): Promise<Uint8Array<ArrayBuffer> | undefined | 'too-large'> {
  if (request.method === 'GET' || request.method === 'HEAD' || !request.body) return undefined;
  if (Number(request.headers.get('content-length') ?? 0) > limit) return 'too-large';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch((error: unknown) => {
        log(
          `request body over the limit: discarding it failed (${error instanceof Error ? error.name : 'unknown error'})`,
        );
      });
      return 'too-large';
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
