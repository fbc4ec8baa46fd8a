import type { Locks } from '../platform/locks';
import { watchedStream, type FetchLike } from './network';

/**
 * How many long-lived SSE streams the app holds open to one plain-http address (scheme, host and port) across its
 * tabs. Browsers speak HTTP/1.1 there (HTTP/2 needs TLS) and keep at most 6 connections per address, and each open
 * stream holds one for as long as it lasts: at 6, every request to that address (a tool call, a tool list) waits
 * forever. 3 leaves 3 connections for requests, so servers behind one local gateway or the local relay keep working.
 */
export const STREAMS_PER_PLAIN_HTTP_ADDRESS = 3;

/** Slots for long-lived streams, counted per address across the app's tabs (Web Locks; per page without them). */
export interface StreamSlots {
  /** Takes a slot for a stream to `origin`; resolves to its release, or undefined when every slot is held. */
  claim(origin: string): Promise<(() => void) | undefined>;
}

export function createStreamSlots(locks: Locks, perOrigin = STREAMS_PER_PLAIN_HTTP_ADDRESS): StreamSlots {
  const claimSlot = (name: string) =>
    new Promise<(() => void) | undefined>((resolve) => {
      let release = () => {};
      const held = new Promise<void>((done) => (release = done));
      // The lock is held (in this tab, counted by every tab) until `release`; a closed tab's locks go with it.
      locks
        .requestIfFree(name, async () => {
          resolve(release);
          await held;
        })
        // The first resolve wins: a granted lock has resolved already, a busy one resolves to undefined here.
        .then(
          () => resolve(undefined),
          () => resolve(undefined),
        );
    });
  return {
    async claim(origin) {
      for (let slot = 0; slot < perOrigin; slot++) {
        const release = await claimSlot(`mcp-stream ${origin} #${slot}`);
        if (release) return release;
      }
      return undefined;
    },
  };
}

export interface StreamBudget {
  readonly slots: StreamSlots;
  /** The address the requests really go to (the relay's when the server is reached through it). */
  readonly origin: string;
  /**
   * Whether a stream may be refused when no slot is free: the streamable-HTTP GET stream is optional (the SDK takes a
   * 405 as "this server offers none"), the legacy SSE stream is the connection itself and always opens.
   */
  readonly mayRefuse: boolean;
  /** Told when a stream was refused: the server's own notifications (a changed tool list) will not arrive. */
  readonly onRefused: () => void;
}

/** Whether a request opens a long-lived stream: a GET that asks for text/event-stream. */
function opensStream(init: RequestInit | undefined): boolean {
  if ((init?.method ?? 'GET').toUpperCase() !== 'GET') return false;
  return (new Headers(init?.headers).get('accept') ?? '').includes('text/event-stream');
}

/**
 * A GET that resumes a stream (Last-Event-ID): the SDK also resumes a dropped POST stream this way, and the answer
 * to a request in flight comes on it. Refused, that request would wait for its timeout.
 */
function resumesStream(init: RequestInit | undefined): boolean {
  return new Headers(init?.headers).has('last-event-id');
}

/**
 * A fetch that holds a slot for each stream it opens to a plain-http address, for as long as the stream is open, and
 * answers 405 in place of a refusable stream when no slot is free (never in place of a resumed one: that one passes,
 * counted if a slot is free). Anything else passes straight through.
 */
export function withStreamBudget(base: FetchLike, budget: StreamBudget): FetchLike {
  return async (input, init) => {
    if (!opensStream(init)) return base(input, init);
    const release = await budget.slots.claim(budget.origin);
    if (!release && budget.mayRefuse && !resumesStream(init)) {
      budget.onRefused();
      return new Response(null, { status: 405, statusText: 'No connection to spare for a stream' });
    }
    const done = release ?? (() => {});
    let response: Response;
    try {
      response = await base(input, init);
    } catch (error) {
      done();
      throw error;
    }
    // Only an open stream holds its slot. A refusal's body is not always read or cancelled (the legacy SSE client
    // drops it), and a slot that waits for it would stay held in every tab.
    if (!response.ok || !response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      done();
      return response;
    }
    return new Response(watchedStream(response.body, { onSettled: done }), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
