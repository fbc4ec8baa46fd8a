import type { StoreApi } from 'zustand/vanilla';
import type { PersonAsked } from '../agent/code/sandbox-port';
import type { ChatState } from './chat-store';
import type { SamplingState } from './sampling-requests';
import type { ServerRequestsState } from './server-requests';

/** The stores whose cards ask the person something. */
export interface AskingStores {
  readonly chat: () => StoreApi<ChatState>;
  readonly requests: StoreApi<ServerRequestsState>;
  readonly sampling: StoreApi<SamplingState>;
}

/**
 * Whether the page asks the person about a code run's calls: the approval of one of them, or, while one runs, a
 * server's form or a server's model call (or its answer) waiting for review (the request does not say which call it
 * came from). The chat's store is read through a function: it is made after the turns' deps.
 */
export function personAskedIn(stores: AskingStores): PersonAsked {
  return {
    isAsked: (callIdPrefix, isCalling) =>
      stores
        .chat()
        .getState()
        .pendingApprovals.some((approval) => approval.toolUseId.startsWith(callIdPrefix)) ||
      (isCalling &&
        (stores.requests.getState().elicitations.length > 0 ||
          stores.sampling.getState().samplings.some((s) => s.stage.kind === 'review' || s.stage.kind === 'result'))),
    subscribe(listener) {
      const stops = [
        stores.chat().subscribe(listener),
        stores.requests.subscribe(listener),
        stores.sampling.subscribe(listener),
      ];
      return () => stops.forEach((stop) => stop());
    },
  };
}
