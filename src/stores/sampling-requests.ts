import { createStore, type StoreApi } from 'zustand/vanilla';
import { describeError } from '../domain/errors';
import { SamplingRejectedError, withEditedText, type SamplingReply, type SamplingRequest } from '../domain/sampling';
import type { ElicitationServer, SamplingHandler } from '../mcp/client-factory';
import { planSampling, runSamplingCall, type SamplingDeps, type SamplingPlan } from '../turns/sampling-call';
import type { RunningTurn } from './chat-store';

/** The running turn a server's sampling request belongs to: its thread, the plan, and how to run the call. */
export interface SamplingTurn {
  readonly threadId: string;
  readonly plan: SamplingPlan;
  /** Aborts when the turn stops. */
  readonly signal: AbortSignal;
  run(request: SamplingRequest, signal: AbortSignal): Promise<SamplingReply>;
}

/** Where a request is: waiting for the person, running, its answer waiting for the person, or failed. */
export type SamplingStage =
  | { readonly kind: 'review' }
  | { readonly kind: 'running' }
  | { readonly kind: 'result'; readonly reply: SamplingReply }
  | { readonly kind: 'failed'; readonly message: string };

/** A server's request to run the model, shown in the chat until the person answers it (twice: request, then result). */
export interface PendingSampling {
  readonly id: string;
  readonly serverId: string;
  readonly serverName: string;
  readonly threadId: string;
  readonly request: SamplingRequest;
  readonly plan: SamplingPlan;
  readonly stage: SamplingStage;
  /** Runs the request, with the person's edits of its texts and system prompt. */
  readonly approve: (edits: { systemPrompt?: string; texts: string[] }) => void;
  /** Refuses the request (before running), or the answer (after): the server gets an error, nothing is sent. */
  readonly reject: () => void;
  /** Sends the model's answer back to the server. */
  readonly send: () => void;
}

/** A request refused without asking, and why (shown once in the chat). */
export interface RefusedSampling {
  readonly id: string;
  readonly serverName: string;
  readonly reason: string;
}

export interface SamplingState {
  readonly samplings: readonly PendingSampling[];
  readonly refused: readonly RefusedSampling[];
}

export interface SamplingRequests {
  readonly store: StoreApi<SamplingState>;
  readonly sampling: SamplingHandler;
  readonly dismissRefusal: (id: string) => void;
}

/**
 * Servers' sampling requests as a store the chat renders and the handler the registry gets. `turnFor` finds the
 * running turn of a thread that uses the server (none: the request is refused, there is no one to ask).
 */
export function createSamplingRequests(
  newId: () => string,
  turnFor: (server: ElicitationServer, request: SamplingRequest) => Promise<SamplingTurn | undefined>,
): SamplingRequests {
  const store = createStore<SamplingState>(() => ({ samplings: [], refused: [] }));
  const refuse = (server: ElicitationServer, reason: string): never => {
    store.setState({ refused: [...store.getState().refused, { id: newId(), serverName: server.name, reason }] });
    throw new SamplingRejectedError(`The client refused the sampling request: ${reason}.`);
  };
  // Requests in flight by server and JSON-RPC id: one delivered twice is shown once and answered once.
  const inFlight = new Map<string, Promise<SamplingReply>>();
  const sampling: SamplingHandler = (request, server, serverSignal, requestId) => {
    if (requestId === undefined) return ask(request, server, serverSignal);
    const key = JSON.stringify([server.id, requestId]);
    const existing = inFlight.get(key);
    if (existing) return existing;
    const asked = ask(request, server, serverSignal).finally(() => inFlight.delete(key));
    inFlight.set(key, asked);
    return asked;
  };
  const ask = async (
    request: SamplingRequest,
    server: ElicitationServer,
    serverSignal: AbortSignal | undefined,
  ): Promise<SamplingReply> => {
    const turn = await turnFor(server, request).catch((error: unknown) => refuse(server, describeError(error)));
    if (!turn) return refuse(server, 'no turn of a thread that uses this server is running, so no one can approve it');
    const signal = serverSignal ? AbortSignal.any([serverSignal, turn.signal]) : turn.signal;
    return new Promise<SamplingReply>((resolve, reject) => {
      const id = newId();
      const update = (stage: SamplingStage) =>
        store.setState({
          samplings: store.getState().samplings.map((p) => (p.id === id ? { ...p, stage } : p)),
        });
      const current = () => store.getState().samplings.find((p) => p.id === id);
      const finish = (outcome: () => void) => {
        store.setState({ samplings: store.getState().samplings.filter((p) => p.id !== id) });
        outcome();
      };
      const pending: PendingSampling = {
        id,
        serverId: server.id,
        serverName: server.name,
        threadId: turn.threadId,
        request,
        plan: turn.plan,
        stage: { kind: 'review' },
        approve: (edits) => {
          const kind = current()?.stage.kind;
          if (kind !== 'review' && kind !== 'failed') return;
          update({ kind: 'running' });
          turn.run(withEditedText(request, edits), signal).then(
            (reply) => update({ kind: 'result', reply }),
            (error: unknown) =>
              signal.aborted
                ? undefined
                : error instanceof SamplingRejectedError
                  ? finish(() => reject(error))
                  : update({ kind: 'failed', message: describeError(error) }),
          );
        },
        reject: () => {
          const stage = current()?.stage.kind;
          if (!stage) return;
          const why =
            stage === 'review' ? 'The person rejected the sampling request.' : 'The person rejected the answer.';
          finish(() => reject(new SamplingRejectedError(why)));
        },
        send: () => {
          const stage = current()?.stage;
          if (stage?.kind === 'result') finish(() => resolve(stage.reply));
        },
      };
      // The server cancelled, or the turn stopped: the request goes away, nothing is sent.
      const onAbort = () => current() && finish(() => reject(new SamplingRejectedError('The request was cancelled.')));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      store.setState({ samplings: [...store.getState().samplings, pending] });
    });
  };
  const dismissRefusal = (id: string) =>
    store.setState({ refused: store.getState().refused.filter((r) => r.id !== id) });
  return { store, sampling, dismissRefusal };
}

/** Finds the running turn of a thread that uses the server, and runs a request there on the person's model. */
export function samplingTurnFinder(
  runningTurn: () => RunningTurn | undefined,
  deps: SamplingDeps,
): (server: ElicitationServer, request: SamplingRequest) => Promise<SamplingTurn | undefined> {
  return async (server, request) => {
    const turn = runningTurn();
    if (!turn || !turn.enabledServerIds.includes(server.id)) return undefined;
    const plan = await planSampling(deps, turn.threadId, request);
    return {
      threadId: turn.threadId,
      plan,
      signal: turn.signal,
      run: (edited, signal) => runSamplingCall(deps, plan, edited, server, turn.addTrace, signal),
    };
  };
}
