/** A connect that finished for a config that was replaced meanwhile. */
export class StaleConnectError extends Error {
  constructor() {
    super('The server was changed while connecting.');
    this.name = 'StaleConnectError';
  }
}

/** Rejects with `onTimeout()` when `promise` takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Rejects as soon as `signal` aborts (the work itself goes on and is awaited by whoever else needs it). Its listener
 * on the signal goes once the promise settles, so a long-lived signal does not gather one per use.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new DOMException('The call was cancelled.', 'AbortError'));
    if (signal.aborted) {
      // Nobody waits for the work now: its failure must not surface as an unhandled rejection.
      promise.catch(() => undefined);
      return abort();
    }
    signal.addEventListener('abort', abort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
