import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ServerState } from '../domain/server-status';
import { failedResult, type ToolCallResult } from '../domain/tool-result';
import { untilAborted } from './async-limits';
import { normalizeCallResult } from './call-result';
import { isSessionExpired, toCallFailure, toConnectionError, type ErrorContext } from './classify-error';
import type { OpenConnection } from './connect';
import type { CallOptions, ServerConnectionDeps } from './server-connection-deps';
import { requestToolCall, type ToolCallShape, type ToolRequestLimits } from './tool-requests';

// A tool call over a server's connection (server-connection.ts): its limits, the retry after an expired session, and
// what its failure does to the server's status.

/** What a tool call uses of its server's connection. */
export interface CallHost {
  readonly deps: () => ServerConnectionDeps;
  readonly state: () => ServerState;
  readonly open: () => OpenConnection | undefined;
  /** Keeps the connection from idling. */
  readonly touch: () => void;
  readonly shapeOf: (name: string) => ToolCallShape;
  readonly ensureConnected: () => Promise<Client>;
  readonly disconnect: (endsSession: boolean) => Promise<void>;
  readonly connectedState: (open: OpenConnection) => ServerState;
  readonly errorContext: () => ErrorContext;
  readonly setState: (state: ServerState) => void;
}

/** Calls a tool, connecting first if needed and once more if its session expired. Never throws. */
export async function callOverConnection(
  host: CallHost,
  name: string,
  args: Record<string, unknown>,
  options: CallOptions,
): Promise<ToolCallResult> {
  const deps = host.deps();
  const started = deps.now();
  const elapsed = () => deps.now() - started;
  const timeoutMs = options.timeoutMs ?? deps.timing.callTimeoutMs;
  const context = (): ErrorContext & { isAborted: boolean; timeoutMs: number } => ({
    ...host.errorContext(),
    isAborted: options.signal?.aborted ?? false,
    timeoutMs,
  });
  for (let attempt = 0; ; attempt++) {
    let client: Client;
    try {
      client = await untilAborted(host.ensureConnected(), options.signal);
    } catch (error) {
      return failedResult(toCallFailure(error, context(), 'connect'), elapsed());
    }
    const hadSession = host.open()?.transport.sessionId !== undefined;
    try {
      const limits = requestLimits(host, options, timeoutMs);
      const raw = await requestToolCall(client, name, args, limits, host.shapeOf(name));
      host.touch();
      // A server that had been answering wrongly answers again: its status says so.
      const open = host.open();
      if (host.state().status === 'error' && open) host.setState(host.connectedState(open));
      return normalizeCallResult(raw, elapsed());
    } catch (error) {
      if (attempt === 0 && isSessionExpired(error, hadSession) && !options.signal?.aborted) {
        await host.disconnect(false); // The server has no session of ours to end.
        continue; // The session expired: initialize again and retry once.
      }
      const failure = toCallFailure(error, context());
      // A 401 or 403 that refresh could not fix: the person must sign in again.
      if (failure.kind === 'auth-required') {
        host.setState({ status: 'needs-auth', lastError: toConnectionError(error, host.errorContext()) });
        await host.disconnect(false); // A DELETE with the credentials it refused would be refused too.
      }
      // Still reachable, but answering with an HTTP error or something that is not MCP: the server's status
      // shows it (not only the call's card) until a call succeeds or it connects again.
      if ((failure.kind === 'http' || failure.kind === 'invalid-response') && host.open()) {
        host.setState({ status: 'error', lastError: toConnectionError(error, host.errorContext()) });
      }
      return failedResult(failure, elapsed());
    }
  }
}

/** A call's limits: its timeout, reset by progress (which also keeps the connection from idling), and Stop. */
function requestLimits(host: CallHost, options: CallOptions, timeoutMs: number): ToolRequestLimits {
  return {
    timeoutMs,
    maxTotalMs: host.deps().timing.maxCallMs,
    ...(options.signal ? { signal: options.signal } : {}),
    onProgress: (progress) => {
      host.touch();
      options.onProgress?.(progress);
    },
  };
}
