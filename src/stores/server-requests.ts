import { createStore, type StoreApi } from 'zustand/vanilla';
import { parseElicitationSchema, type FormField } from '../domain/elicitation-form';
import type { ElicitationHandler, ElicitationServer } from '../mcp/client-factory';

/** What the person answered a server's request with. */
export type ElicitAnswer =
  | { readonly action: 'accept'; readonly content?: Record<string, string | number | boolean | string[]> }
  | { readonly action: 'decline' | 'cancel' };

/** A server's request for input, shown in the chat until the person answers (or the server gives up). */
export interface PendingElicitation {
  readonly id: string;
  readonly serverId: string;
  readonly serverName: string;
  readonly message: string;
  /** Form mode: the fields to fill in. */
  readonly fields?: readonly FormField[];
  /** URL mode: the page to open, and its origin (what the person is asked to trust). */
  readonly url?: string;
  readonly origin?: string;
  /** The thread whose turn was running when it came (it shows there only, and goes when that turn ends). */
  readonly threadId?: string;
  readonly answer: (answer: ElicitAnswer) => void;
}

/** A request declined without asking the person, and why (shown once in the chat). */
export interface RefusedElicitation {
  readonly id: string;
  readonly serverName: string;
  readonly reason: string;
  /** The thread whose turn was running when it came (its note shows there only); none when no turn ran. */
  readonly threadId?: string;
}

export interface ServerRequestsState {
  readonly elicitations: readonly PendingElicitation[];
  readonly refused: readonly RefusedElicitation[];
}

export type ServerRequestsStore = StoreApi<ServerRequestsState>;

export interface ServerRequests {
  readonly store: ServerRequestsStore;
  readonly elicitation: ElicitationHandler;
  readonly dismissRefusal: (id: string) => void;
  /**
   * The turn of this thread ended (done, failed or stopped): its questions are cancelled. A question belongs to a
   * tool call of that turn; once the turn is over an answer would go to a call no one waits for.
   */
  readonly endTurn: (threadId: string) => void;
}

/**
 * Servers' requests to the person (elicitation), as a store the chat renders and the handler the registry gets.
 * `runningThreadId` names the thread whose turn runs now (a request comes during one of its tool calls).
 */
export function createServerRequests(
  newId: () => string,
  runningThreadId: () => string | undefined = () => undefined,
): ServerRequests {
  const store = createStore<ServerRequestsState>(() => ({ elicitations: [], refused: [] }));
  const refuse = (server: ElicitationServer, reason: string) => {
    const threadId = runningThreadId();
    const refused = { id: newId(), serverName: server.name, reason, ...(threadId ? { threadId } : {}) };
    store.setState({ refused: [...store.getState().refused, refused] });
    return { action: 'decline' as const };
  };
  const elicitation: ElicitationHandler = (params, server, signal) => {
    let fields: readonly FormField[] | undefined;
    let target: URL | undefined;
    if (params.mode === 'url') {
      target = URL.canParse(params.url) ? new URL(params.url) : undefined;
      const isWeb = target?.protocol === 'https:' || (target?.protocol === 'http:' && isLoopback(target.hostname));
      if (!target || !isWeb)
        return Promise.resolve(
          refuse(server, `the address it asked to open is not a web page (${params.url.slice(0, 80)})`),
        );
    } else {
      const parsed = parseElicitationSchema(params.requestedSchema);
      if (!parsed.ok) return Promise.resolve(refuse(server, parsed.reason));
      fields = parsed.value;
    }
    const threadId = runningThreadId();
    return new Promise((resolve) => {
      const pending: PendingElicitation = {
        id: newId(),
        ...(threadId ? { threadId } : {}),
        serverId: server.id,
        serverName: server.name,
        message: params.message,
        ...(fields ? { fields } : {}),
        ...(target ? { url: target.href, origin: target.origin } : {}),
        answer: (answer) => {
          store.setState({ elicitations: store.getState().elicitations.filter((p) => p !== pending) });
          resolve(answer);
        },
      };
      // The server cancelled (or the connection closed): the question goes away.
      signal?.addEventListener('abort', () => pending.answer({ action: 'cancel' }), { once: true });
      store.setState({ elicitations: [...store.getState().elicitations, pending] });
    });
  };
  const dismissRefusal = (id: string) =>
    store.setState({ refused: store.getState().refused.filter((r) => r.id !== id) });
  const endTurn = (threadId: string) => {
    for (const pending of store.getState().elicitations)
      if (pending.threadId === threadId) pending.answer({ action: 'cancel' });
  };
  return { store, elicitation, dismissRefusal, endTurn };
}

/** Ends the questions of each turn as it ends (the chat's running thread changes); returns the unsubscribe. */
export function endQuestionsWithTurns(
  chat: StoreApi<{ readonly runningThreadId?: string }>,
  requests: Pick<ServerRequests, 'endTurn'>,
): () => void {
  let running = chat.getState().runningThreadId;
  return chat.subscribe(({ runningThreadId }) => {
    if (runningThreadId === running) return;
    if (running !== undefined) requests.endTurn(running);
    running = runningThreadId;
  });
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}
