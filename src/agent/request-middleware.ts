// Middleware on the SDK's requests to the Messages API (each runs for every attempt of a request): what the person is
// told while the SDK retries, and an end to an answer that stops arriving without its connection closing.
import type { Middleware } from '@anthropic-ai/sdk/core/middleware';
import type { ModelRetry } from './model-port';

/**
 * Three minutes without a byte: the API keeps a quiet stream alive with ping events, so an answer that sends nothing
 * for this long has stopped arriving (a proxy or network that dropped it without closing), and says so with Retry
 * rather than showing "…" for ever.
 */
export const STREAM_IDLE_MS = 180_000;

/** Whether the SDK retries after this answer (its own rule: x-should-retry, then 408, 409, 429 and 5xx). */
function isRetried(response: Response): boolean {
  const header = response.headers.get('x-should-retry');
  if (header === 'true' || header === 'false') return header === 'true';
  return [408, 409, 429].includes(response.status) || response.status >= 500;
}

/** The wait the API asked for (retry-after-ms, else retry-after in seconds or as a date), in seconds. */
function askedWait(headers: Headers): number | undefined {
  const ms = parseFloat(headers.get('retry-after-ms') ?? '');
  if (ms > 0) return ms / 1000;
  const after = headers.get('retry-after');
  if (!after) return undefined;
  const seconds = Number.isNaN(parseFloat(after)) ? (Date.parse(after) - Date.now()) / 1000 : parseFloat(after);
  return seconds > 0 ? seconds : undefined;
}

/**
 * Watches the SDK's attempts of one request (a middleware runs for each): a refused one that the SDK will retry is told
 * to `onRetry` (the person sees why the answer waits), and the next attempt's start clears it.
 */
export function watchRetries(onRetry: (retry: ModelRetry | undefined) => void, maxRetries: number): Middleware {
  let attempts = 0;
  return async (request, next) => {
    if (attempts++ > 0) onRetry(undefined);
    const response = await next(request);
    if (!response.ok && attempts <= maxRetries && isRetried(response)) {
      const seconds = askedWait(response.headers);
      onRetry({ status: response.status, ...(seconds !== undefined ? { seconds } : {}) });
    }
    return response;
  };
}

/**
 * Ends a response body that sends nothing for `idleMs` with an error (the SDK then fails the answer as cut): the
 * SDK's own timeout stops at the response's headers, and a stream that stalls after them would wait for ever.
 */
export function cutWhenIdle(idleMs: number): Middleware {
  return async (request, next) => {
    const response = await next(request);
    if (!response.body) return response;
    const reader = response.body.getReader();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const idle = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`nothing arrived for ${Math.round(idleMs / 1000)} s`)), idleMs);
        });
        try {
          const chunk = await Promise.race([reader.read(), idle]);
          if (chunk.done) controller.close();
          else controller.enqueue(chunk.value);
        } catch (error) {
          reader.cancel(error).catch(() => undefined); // The connection is let go.
          controller.error(error);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel(reason) {
        clearTimeout(timer);
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
