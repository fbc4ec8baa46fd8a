import { isIpLiteral, isLoopbackName, isPrivateAddress } from './private-address';

/** Resolves a DNS name to its addresses; absent on runtimes without DNS access (then only literals are checked). */
export type ResolveHost = (hostname: string) => Promise<readonly string[]>;

export interface TargetPolicy {
  readonly allowPrivateTargets: boolean;
  readonly resolveHost?: ResolveHost;
}

/** Parses the `url` parameter: a full http(s) URL, or the reason it is refused. */
export function parseTarget(raw: string | null): URL | string {
  if (!raw) return 'the url parameter is missing (use ?url=<encoded target URL>)';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'the url parameter is not a full URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `the target must be http(s), not ${url.protocol}`;
  if (url.username || url.password) return 'the target URL must not carry a user name or password';
  return url;
}

/** Why a target host may not be reached (loopback or private, by name, literal or DNS answer), or undefined. */
export async function privateTargetProblem(url: URL, policy: TargetPolicy): Promise<string | undefined> {
  if (policy.allowPrivateTargets) return undefined;
  const host = url.hostname;
  const refused = `the target ${host} is a loopback or private address (start the relay with --allow-private-targets to allow it)`;
  if (isLoopbackName(host)) return refused;
  if (isIpLiteral(host)) return isPrivateAddress(host) ? refused : undefined;
  if (!policy.resolveHost) return undefined;
  let addresses: readonly string[];
  try {
    addresses = await policy.resolveHost(host);
  } catch {
    return `the target host ${host} could not be resolved`;
  }
  const inside = addresses.find(isPrivateAddress);
  return inside
    ? `the target ${host} resolves to the loopback or private address ${inside} (start the relay with --allow-private-targets to allow it)`
    : undefined;
}

/** A connection was about to open to a loopback or private address (a name that changed its answer after the check). */
export class PrivateConnectError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'PrivateConnectError';
  }
}

/** The private-address refusal behind a failed fetch (fetch wraps the connection's error as its `cause`), if any. */
export function privateConnectReason(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof PrivateConnectError) return e.reason;
  }
  return undefined;
}
