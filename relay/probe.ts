import { discardBody, type RelayLog } from './forward';
import { privateConnectReason, privateTargetProblem, type TargetPolicy } from './target-check';

/** Request headers a browser client sends over an MCP session (the preflight asks for all of them). */
const NEEDED_REQUEST_HEADERS = [
  'content-type',
  'mcp-protocol-version',
  'mcp-session-id',
  'authorization',
  'last-event-id',
];
/** GET and POST are CORS-safelisted methods; DELETE (ending a session) must be allowed by name. */
const NEEDED_METHODS = ['DELETE'];

/** What `/probe` found: exactly which CORS pieces the target lacks for a browser at `origin`. */
export interface ProbeReport {
  readonly target: string;
  readonly origin: string;
  /** Whether the target answered at all. */
  readonly reachable: boolean;
  /** Whether a browser at `origin` could use the target directly. */
  readonly corsOk: boolean;
  readonly preflight?: {
    readonly status: number;
    readonly allowOrigin: 'ok' | 'missing' | 'other-origin';
    readonly missingAllowHeaders: readonly string[];
    readonly missingMethods: readonly string[];
  };
  readonly initialize?: {
    readonly status: number;
    readonly allowOrigin: 'ok' | 'missing' | 'other-origin';
    readonly missingExposedHeaders: readonly string[];
  };
  /** One line per missing piece, for people. */
  readonly lacks: readonly string[];
  readonly error?: string;
}

export type ProbeOutcome = { readonly report: ProbeReport } | { readonly refused: string };

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'mcp-relay-probe', version: '0.1.0' },
  },
};

/** Sends the preflight and a bare initialize the way a browser at `origin` would, and reports what is missing. */
export async function probeTarget(
  target: URL,
  origin: string,
  policy: TargetPolicy,
  fetchFn: typeof fetch,
  signal: AbortSignal,
  log: RelayLog = () => undefined,
): Promise<ProbeOutcome> {
  const problem = await privateTargetProblem(target, policy);
  if (problem) return { refused: problem };
  const base = { target: target.href, origin };
  let preflight: Response;
  try {
    preflight = await fetchFn(target, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': NEEDED_REQUEST_HEADERS.join(','),
      },
      redirect: 'manual',
      signal,
    });
    await discardBody(preflight.body, log, `probe preflight of ${target.origin}${target.pathname}`);
  } catch (error) {
    const refused = privateConnectReason(error);
    if (refused) return { refused };
    const reason = error instanceof Error ? error.message : String(error);
    return {
      report: { ...base, reachable: false, corsOk: false, lacks: [], error: `the target does not answer (${reason})` },
    };
  }
  const pre = {
    status: preflight.status,
    allowOrigin: allowOriginOf(preflight.headers, origin),
    missingAllowHeaders: missingFromList(
      preflight.headers.get('access-control-allow-headers'),
      NEEDED_REQUEST_HEADERS,
      true,
    ),
    missingMethods: missingFromList(preflight.headers.get('access-control-allow-methods'), NEEDED_METHODS, false),
  };
  const init = await probeInitialize(target, origin, fetchFn, signal, log);
  const lacks = [
    ...(pre.status < 200 || pre.status >= 300
      ? [`the preflight (OPTIONS) is answered with HTTP ${pre.status}, not 2xx`]
      : []),
    ...(pre.allowOrigin !== 'ok' ? [`the preflight has ${describeAllowOrigin(pre.allowOrigin, origin)}`] : []),
    ...(pre.missingAllowHeaders.length
      ? [`the preflight does not allow the request headers ${pre.missingAllowHeaders.join(', ')}`]
      : []),
    ...(pre.missingMethods.length ? [`the preflight does not allow the methods ${pre.missingMethods.join(', ')}`] : []),
    ...(init && init.allowOrigin !== 'ok'
      ? [`the initialize response has ${describeAllowOrigin(init.allowOrigin, origin)}`]
      : []),
    ...(init?.missingExposedHeaders.length
      ? [`the response does not expose ${init.missingExposedHeaders.join(', ')}`]
      : []),
  ];
  return {
    report: {
      ...base,
      reachable: true,
      corsOk: lacks.length === 0,
      preflight: pre,
      ...(init ? { initialize: init } : {}),
      lacks,
    },
  };
}

async function probeInitialize(
  target: URL,
  origin: string,
  fetchFn: typeof fetch,
  signal: AbortSignal,
  log: RelayLog,
): Promise<ProbeReport['initialize']> {
  try {
    const response = await fetchFn(target, {
      method: 'POST',
      headers: { Origin: origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(INITIALIZE),
      redirect: 'manual',
      signal,
    });
    await discardBody(response.body, log, `probe initialize of ${target.origin}${target.pathname}`);
    const sessionId = response.headers.get('mcp-session-id');
    if (sessionId) void closeSession(target, origin, sessionId, fetchFn, log);
    return {
      status: response.status,
      allowOrigin: allowOriginOf(response.headers, origin),
      missingExposedHeaders: missingFromList(
        response.headers.get('access-control-expose-headers'),
        neededExposed(response, sessionId),
        false,
      ),
    };
  } catch {
    return undefined;
  }
}

/** Ends the session the probe opened, so the target keeps nothing of it. */
async function closeSession(
  target: URL,
  origin: string,
  sessionId: string,
  fetchFn: typeof fetch,
  log: RelayLog,
): Promise<void> {
  const what = `probe session end at ${target.origin}${target.pathname}`;
  await fetchFn(target, { method: 'DELETE', headers: { Origin: origin, 'mcp-session-id': sessionId } }).then(
    (response) => discardBody(response.body, log, what),
    (error: unknown) => log(`${what}: no answer (${error instanceof Error ? error.name : 'unknown error'})`),
  );
}

/** The response headers the SDK reads from this answer: the session id when there is one, the challenge on a 401. */
function neededExposed(response: Response, sessionId: string | null): string[] {
  return [...(sessionId ? ['mcp-session-id'] : []), ...(response.status === 401 ? ['www-authenticate'] : [])];
}

function allowOriginOf(headers: Headers, origin: string): 'ok' | 'missing' | 'other-origin' {
  const value = headers.get('access-control-allow-origin')?.trim();
  if (!value) return 'missing';
  return value === '*' || value === origin ? 'ok' : 'other-origin';
}

function describeAllowOrigin(state: 'missing' | 'other-origin', origin: string): string {
  return state === 'missing'
    ? 'no Access-Control-Allow-Origin header'
    : `an Access-Control-Allow-Origin that is neither ${origin} nor *`;
}

/** Names of `needed` absent from a comma-separated header; `*` covers all but authorization (Fetch standard). */
function missingFromList(value: string | null, needed: readonly string[], isRequestHeaders: boolean): string[] {
  const listed = new Set(
    (value ?? '')
      .split(',')
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean),
  );
  return needed.filter((name) => {
    if (listed.has(name.toLowerCase())) return false;
    if (listed.has('*')) return isRequestHeaders && name === 'authorization';
    return true;
  });
}
