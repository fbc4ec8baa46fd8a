import { createStore, type StoreApi } from 'zustand/vanilla';
import { describeError } from '../domain/errors';
import { SamplingRejectedError, withEditedText, type SamplingReply, type SamplingRequest } from '../domain/sampling';
import type { ElicitationServer, SamplingHandler } from '../mcp/client-factory';
import { planSampling, runSamplingCall, type SamplingDeps, type SamplingPlan } from '../turns/sampling-call';
import type { RunningTurn } from './chat-store';
import type { Registry } from '../mcp/registry';

/** The running turn a server's sampling request belongs to: its thread, the plan, and how to run the call. */
export interface SamplingTurn {
  readonly threadId: string;
  readonly plan: SamplingPlan;
  /** Aborts when the turn stops. */
  readonly signal: AbortSignal;
  run(request: SamplingRequest, signal: AbortSignal): Promise<SamplingReply>;
  /** The person allowed this server's requests in this thread (at its current origin): run and answer without asking. */
  readonly isAllowed: boolean;
  /** Remembers "Allow for this thread" for this server at its current origin, on the thread. */
  allowForThread(): Promise<void>;
  /** Forgets it: the server's next request in this thread asks again. */
  stopAllowing(): Promise<void>;
}

/** Where a request is: waiting for the person, running, its answer waiting for the person, or failed. */
export type SamplingStage =
  | { readonly kind: 'review' }
  | { readonly kind: 'running' }
  | { readonly kind: 'result'; readonly reply: SamplingReply }
  /** Allowed for the thread: the answer went back without asking; the card stays so nothing happens unseen. */
  | { readonly kind: 'sent'; readonly request: SamplingRequest; readonly reply: SamplingReply }
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
  /** Runs without asking, and its answer goes back without asking: the server is allowed for this thread. */
  readonly allowedForThread: boolean;
  /** The person said "Stop allowing" on this card (or another of the server's in the thread). */
  readonly stoppedAllowing?: boolean;
  /** Runs the request, with the person's edits of its texts and system prompt. */
  readonly approve: (edits: { systemPrompt?: string; texts: string[] }) => void;
  /** Runs it like `approve`, and remembers that this server's requests in this thread run and answer without asking. */
  readonly allowForThread: (edits: { systemPrompt?: string; texts: string[] }) => void;
  /** Forgets "Allow for this thread" for this server and thread. */
  readonly stopAllowing: () => void;
  /** Takes a card whose answer already went back out of the chat. */
  readonly dismiss: () => void;
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
  notes?: Pick<Registry, 'note'>,
): SamplingRequests {
  const store = createStore<SamplingState>(() => ({ samplings: [], refused: [] }));
  const refuse = (server: ElicitationServer, reason: string): never => {
    store.setState({ refused: [...store.getState().refused, { id: newId(), serverName: server.name, reason }] });
    throw new SamplingRejectedError(`The client refused the sampling request: ${reason}.`);
  };
  const sampling: SamplingHandler = async (request, server, serverSignal) => {
    const turn = await turnFor(server, request).catch((error: unknown) => refuse(server, describeError(error)));
    if (!turn) {
      // Not in the chat: a server could fill every thread with notes. Its log says it, where the person looks for it.
      const reason = 'no call of this server was running in a thread where it is on, so no one was asked';
      notes?.note(server.id, `Refused its request to run the model: ${reason}.`);
      throw new SamplingRejectedError(`The client refused the sampling request: ${reason}.`);
    }
    const signal = serverSignal ? AbortSignal.any([serverSignal, turn.signal]) : turn.signal;
    return new Promise<SamplingReply>((resolve, reject) => {
      const id = newId();
      const patch = (change: Partial<PendingSampling>) =>
        store.setState({
          samplings: store.getState().samplings.map((p) => (p.id === id ? { ...p, ...change } : p)),
        });
      const update = (stage: SamplingStage) => patch({ stage });
      const current = () => store.getState().samplings.find((p) => p.id === id);
      const remove = () => store.setState({ samplings: store.getState().samplings.filter((p) => p.id !== id) });
      const finish = (outcome: () => void) => {
        remove();
        outcome();
      };
      const run = (edited: SamplingRequest) => {
        update({ kind: 'running' });
        turn.run(edited, signal).then(
          (reply) => {
            if (!current()?.allowedForThread) return update({ kind: 'result', reply });
            // Allowed for the thread: the answer goes back now; the card stays, showing what was sent and answered.
            signal.removeEventListener('abort', onAbort);
            update({ kind: 'sent', request: edited, reply });
            resolve(reply);
          },
          (error: unknown) =>
            signal.aborted
              ? undefined
              : error instanceof SamplingRejectedError
                ? finish(() => reject(error))
                : update({ kind: 'failed', message: describeError(error) }),
        );
      };
      const isReviewable = () => {
        const kind = current()?.stage.kind;
        return kind === 'review' || kind === 'failed';
      };
      const pending: PendingSampling = {
        id,
        serverId: server.id,
        serverName: server.name,
        threadId: turn.threadId,
        request,
        plan: turn.plan,
        stage: { kind: turn.isAllowed ? 'running' : 'review' },
        allowedForThread: turn.isAllowed,
        approve: (edits) => {
          if (isReviewable()) run(withEditedText(request, edits));
        },
        allowForThread: (edits) => {
          if (!isReviewable()) return;
          update({ kind: 'running' });
          turn.allowForThread().then(
            () => {
              patch({ allowedForThread: true });
              run(withEditedText(request, edits));
            },
            (error: unknown) =>
              update({ kind: 'failed', message: `Allowing it for this thread failed: ${describeError(error)}` }),
          );
        },
        stopAllowing: () => {
          turn.stopAllowing().then(
            () =>
              store.setState({
                samplings: store
                  .getState()
                  .samplings.map((p) =>
                    p.serverId === server.id && p.threadId === turn.threadId ? { ...p, stoppedAllowing: true } : p,
                  ),
              }),
            (error: unknown) => update({ kind: 'failed', message: `Stopping failed: ${describeError(error)}` }),
          );
        },
        dismiss: () => {
          if (current()?.stage.kind === 'sent') remove();
        },
        reject: () => {
          const stage = current()?.stage.kind;
          if (!stage || stage === 'sent') return;
          const why =
            stage === 'review'
              ? 'The person rejected the sampling request.'
              : stage === 'failed'
                ? 'The request failed, and the person did not try it again.'
                : 'The person rejected the answer.';
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
      // Allowed for this thread: it runs as it came, without asking (the card shows it running, then what was sent).
      if (turn.isAllowed) run(request);
    });
  };
  const dismissRefusal = (id: string) =>
    store.setState({ refused: store.getState().refused.filter((r) => r.id !== id) });
  return { store, sampling, dismissRefusal };
}

/**
 * Finds the running turn of a thread that uses the server while a call of that server runs (a server samples while
 * handling the app's request), and runs a request there on the person's model.
 */
export function samplingTurnFinder(
  runningTurn: () => RunningTurn | undefined,
  deps: SamplingDeps,
  /** The origin a server answers at now (its URL's); undefined for a server not registered. */
  originOf: (serverId: string) => string | undefined,
  /** Whether the turn of the thread has a call of the server running now (not an app of the thread). */
  isTurnCalling: (serverId: string, threadId: string) => boolean,
): (server: ElicitationServer, request: SamplingRequest) => Promise<SamplingTurn | undefined> {
  return async (server, request) => {
    const turn = runningTurn();
    if (!turn || !turn.enabledServerIds.includes(server.id) || !isTurnCalling(server.id, turn.threadId))
      return undefined;
    const { threadId } = turn;
    const [plan, thread] = await Promise.all([
      planSampling(deps, threadId, request),
      deps.storage.threads.get(threadId),
    ]);
    const origin = originOf(server.id);
    const allowedAt = thread?.samplingAllowed?.[server.id]?.origin;
    const setAllowed = (allowed: { origin: string } | undefined) =>
      deps.storage.threads.update(threadId, (t) => {
        const { [server.id]: _dropped, ...others } = t.samplingAllowed ?? {};
        return { samplingAllowed: allowed ? { ...others, [server.id]: allowed } : others };
      });
    return {
      threadId,
      plan,
      signal: turn.signal,
      run: (edited, signal) => runSamplingCall(deps, plan, edited, server, turn.addTrace, signal),
      isAllowed: origin !== undefined && allowedAt === origin,
      allowForThread: async () => {
        if (origin === undefined) throw new Error('the server is no longer registered');
        await setAllowed({ origin });
      },
      stopAllowing: async () => void (await setAllowed(undefined)),
    };
  };
}
