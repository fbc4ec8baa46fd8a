import { createStore, type StoreApi } from 'zustand/vanilla';
import { parseElicitationSchema, type FormField } from '../domain/elicitation-form';
import type { ElicitationHandler, ElicitationServer } from '../mcp/client-factory';
import type { RunningCall } from './server-calls';
import type { Registry } from '../mcp/registry';

/** What the person answered a server's request with. */
export type ElicitAnswer =
  | { readonly action: 'accept'; readonly content?: Record<string, string | number | boolean | string[]> }
  | { readonly action: 'decline' | 'cancel' };

/** A server's request for input, shown in the chat until the person answers (or the server gives up). */
export interface PendingElicitation {
  readonly id: string;
  readonly serverId: string;
  readonly serverName: string;
  /** Where the server answers (its URL's host), so the person knows who asks. */
  readonly serverHost?: string;
  readonly message: string;
  /** Form mode: the fields to fill in. */
  readonly fields?: readonly FormField[];
  /** URL mode: the page to open, and its origin (what the person is asked to trust). */
  readonly url?: string;
  readonly origin?: string;
  /** The thread whose tool call it came during (it shows there only). */
  readonly threadId: string;
  /** It came during a call of that thread's turn (not an MCP App's), so it goes when the turn ends. */
  readonly isFromTurn?: boolean;
  readonly answer: (answer: ElicitAnswer) => void;
}

/** A request declined without asking the person, and why (shown once in the chat). */
export interface RefusedElicitation {
  readonly id: string;
  readonly serverName: string;
  readonly reason: string;
  /** The thread whose tool call it came during (its note shows there only). */
  readonly threadId: string;
}

export interface ServerRequestsState {
  readonly elicitations: readonly PendingElicitation[];
  readonly refused: readonly RefusedElicitation[];
}

/** Whose tool call a server's request came during: a thread's turn, or an MCP App's call from a thread's card. */
export interface RequestCaller {
  readonly threadId: string;
  readonly isTurn: boolean;
  /** An app's: resolves once its call of the server settles (its question is then cancelled: no one waits for it). */
  readonly settled?: Promise<void>;
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

/** Where the app writes what it declined without asking, and where a server answers (its host), for the card. */
export interface ServerRequestsOptions {
  /** The registry's notes: the app's own lines in a server's log. */
  readonly notes?: Pick<Registry, 'note'>;
  readonly hostOf?: (serverId: string) => string | undefined;
}

/**
 * Servers' requests to the person (elicitation), as a store the chat renders and the handler the registry gets.
 * `callerOf` names the thread a request of a server belongs to: the one whose tool call it comes during (the running
 * turn's, or an MCP App's call from its thread's card). A request outside any such call is declined without showing
 * it (a server may ask only while handling a request of the app: the spec's elicitation flow), with a note in the
 * server's log.
 */
export function createServerRequests(
  newId: () => string,
  callerOf: (serverId: string) => RequestCaller | undefined = () => undefined,
  { notes, hostOf }: ServerRequestsOptions = {},
): ServerRequests {
  const store = createStore<ServerRequestsState>(() => ({ elicitations: [], refused: [] }));
  const refuse = (server: ElicitationServer, threadId: string, reason: string) => {
    const refused = { id: newId(), serverName: server.name, reason, threadId };
    store.setState({ refused: [...store.getState().refused, refused] });
    return { action: 'decline' as const };
  };
  const elicitation: ElicitationHandler = (params, server, signal) => {
    const caller = callerOf(server.id);
    if (!caller) {
      notes?.note(
        server.id,
        `Declined its request for input ("${oneLine(params.message)}"): it came while no call of this server was ` +
          'running in a thread where it is on, so no one was asked.',
      );
      return Promise.resolve({ action: 'decline' });
    }
    let fields: readonly FormField[] | undefined;
    let target: URL | undefined;
    if (params.mode === 'url') {
      target = URL.canParse(params.url) ? new URL(params.url) : undefined;
      const isWeb = target?.protocol === 'https:' || (target?.protocol === 'http:' && isLoopback(target.hostname));
      if (!target || !isWeb)
        return Promise.resolve(
          refuse(
            server,
            caller.threadId,
            `the address it asked to open is not a web page (${params.url.slice(0, 80)})`,
          ),
        );
    } else {
      const parsed = parseElicitationSchema(params.requestedSchema);
      if (!parsed.ok) return Promise.resolve(refuse(server, caller.threadId, parsed.reason));
      fields = parsed.value;
    }
    const serverHost = hostOf?.(server.id);
    return new Promise((resolve) => {
      const pending: PendingElicitation = {
        id: newId(),
        threadId: caller.threadId,
        ...(caller.isTurn ? { isFromTurn: true } : {}),
        serverId: server.id,
        serverName: server.name,
        ...(serverHost ? { serverHost } : {}),
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
      // An app's call it came during ended: its answer would go to a call no one waits for.
      void caller.settled?.then(() => pending.answer({ action: 'cancel' }));
      store.setState({ elicitations: [...store.getState().elicitations, pending] });
    });
  };
  const dismissRefusal = (id: string) =>
    store.setState({ refused: store.getState().refused.filter((r) => r.id !== id) });
  const endTurn = (threadId: string) => {
    for (const pending of store.getState().elicitations)
      if (pending.isFromTurn && pending.threadId === threadId) pending.answer({ action: 'cancel' });
  };
  return { store, elicitation, dismissRefusal, endTurn };
}

/**
 * Whose call a request of `serverId` comes during (the request does not say): the running turn's when its thread
 * has the server on and the turn has a call of that server running; else the thread where an MCP App or the person
 * (a prompt, a resource) has a request of the server running and has it on (one thread only); else nobody's (no
 * guess: a question shown in a thread that did not call the server is one the person cannot place).
 */
export function requestCaller(
  turn: { readonly threadId: string; readonly enabledServerIds: readonly string[] } | undefined,
  serverId: string,
  running: readonly RunningCall[],
  /** The servers on in a thread now. */
  enabledIn: (threadId: string) => readonly string[],
): RequestCaller | undefined {
  if (turn && turn.enabledServerIds.includes(serverId) && running.some((c) => c.isTurn && c.threadId === turn.threadId))
    return { threadId: turn.threadId, isTurn: true };
  const apps = running.filter((c) => !c.isTurn && enabledIn(c.threadId).includes(serverId));
  const [first] = apps;
  if (!first || apps.some((c) => c.threadId !== first.threadId)) return undefined;
  // Several such calls of that thread: the question stays while any of them runs (it cannot tell which one asked).
  const settled = Promise.all(apps.map((c) => c.settled)).then(() => undefined);
  return { threadId: first.threadId, isTurn: false, settled };
}

/** A server's text on one line, cut short, for a note. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
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
