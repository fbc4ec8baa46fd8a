/** How long a server connection waits for things, and when it gives up or closes. */
export interface ConnectionTiming {
  /** Close the connection after this long without use. */
  readonly idleMs: number;
  /** A call fails after this long without an answer or a progress notification. */
  readonly callTimeoutMs: number;
  /** A call fails after this long whatever progress it reports. */
  readonly maxCallMs: number;
  /** Reconnection after a drop: first delay, cap, attempts. */
  readonly reconnect: { readonly initialMs: number; readonly maxMs: number; readonly attempts: number };
  /** A connect (initialize, or the legacy SSE endpoint event) fails after this long. */
  readonly connectMs: number;
  /** A server connected without its stream (no live updates) has its tools listed again on use, at most this often. */
  readonly relistWithoutStreamMs: number;
  /** A tool name its server does not list has the server's tools listed again, at most this often. */
  readonly relistOnUnknownToolMs: number;
}

export const DEFAULT_TIMING: ConnectionTiming = {
  idleMs: 10 * 60_000,
  callTimeoutMs: 60_000,
  maxCallMs: 15 * 60_000,
  reconnect: { initialMs: 1000, maxMs: 30_000, attempts: 8 },
  connectMs: 30_000,
  relistWithoutStreamMs: 60_000,
  relistOnUnknownToolMs: 10_000,
};
