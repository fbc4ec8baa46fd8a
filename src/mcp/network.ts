import { AppError } from '../domain/errors';

/** A fetch that never got a response (refused, reset, DNS, or blocked by CORS). Raised by our fetch wrapper. */
export class NetworkFailure extends Error {
  constructor(
    readonly url: string,
    override readonly cause: unknown,
  ) {
    super(`No response from ${url}`);
    this.name = 'NetworkFailure';
  }
}

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface GuardedFetchOptions {
  /** Origin of the MCP server; credentials and custom headers are never sent anywhere else. */
  readonly serverOrigin: string;
  /** Header names that carry secrets for this server (lowercase); bearer tokens are always covered. */
  readonly secretHeaders: readonly string[];
  /** Called when a request or a response stream fails at the network level. */
  readonly onNetworkFailure: (failure: NetworkFailure) => void;
  /** Called when any response arrives. */
  readonly onResponse?: (response: Response) => void;
}

/**
 * Wraps fetch for one server connection: network failures become NetworkFailure (a type, not a message
 * to parse), a response body that breaks mid-stream is reported too, and secret headers are stripped
 * from requests to any other origin.
 */
export function guardedFetch(base: FetchLike, options: GuardedFetchOptions): FetchLike {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input.href;
    const sameOrigin = new URL(url).origin === options.serverOrigin;
    const safeInit = sameOrigin ? init : stripHeaders(init, options.secretHeaders);
    let response: Response;
    try {
      response = await base(input, safeInit);
    } catch (error) {
      if (init?.signal?.aborted) throw error;
      // A typed error from a wrapped fetch (the relay's) says more than "no response"; a relay gone away still
      // counts as the connection dropping.
      if (error instanceof AppError) {
        if (error.kind === 'relay-unreachable') options.onNetworkFailure(new NetworkFailure(url, error));
        throw error;
      }
      const failure = new NetworkFailure(url, error);
      options.onNetworkFailure(failure);
      throw failure;
    }
    options.onResponse?.(response);
    if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) return response;
    return new Response(
      // A read error that is not our own abort: the server is gone.
      watchedStream(response.body, {
        onReadError: () => {
          if (!init?.signal?.aborted) options.onNetworkFailure(new NetworkFailure(url, 'stream broke'));
        },
      }),
      {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      },
    );
  };
}

/** Removes secret headers and bearer tokens; Basic client authentication to a token endpoint stays. */
function stripHeaders(init: RequestInit | undefined, names: readonly string[]): RequestInit | undefined {
  if (!init?.headers) return init;
  const headers = new Headers(init.headers);
  for (const name of names) headers.delete(name);
  if (/^bearer /i.test(headers.get('authorization') ?? '')) headers.delete('authorization');
  return { ...init, headers };
}

/** What a watched stream tells: a read that failed, and (once) that it is over: read to its end, failed or cancelled. */
export interface StreamWatch {
  readonly onReadError?: (error: unknown) => void;
  readonly onSettled?: () => void;
}

/** Passes a stream through unchanged, telling `watch` when a read fails and when the stream is over. */
export function watchedStream(body: ReadableStream<Uint8Array>, watch: StreamWatch): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let isSettled = false;
  const settle = () => {
    if (isSettled) return;
    isSettled = true;
    watch.onSettled?.();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          settle();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        watch.onReadError?.(error);
        settle();
        controller.error(error);
      }
    },
    cancel(reason) {
      settle();
      return reader.cancel(reason);
    },
  });
}
