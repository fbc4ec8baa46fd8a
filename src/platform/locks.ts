import { reportedElsewhere } from '../domain/logger';

/** Exclusive locks by name, held across the tabs of this origin where the browser has Web Locks. */
export interface Locks {
  request<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** Runs `work` under the lock only if no one (in any tab) holds it now; otherwise resolves to undefined at once. */
  requestIfFree<T>(name: string, work: () => Promise<T>): Promise<T | undefined>;
}

/** Web Locks (navigator.locks) when present, else a lock that serializes within this page only. */
export function createLocks(lockManager: LockManager | undefined): Locks {
  if (!lockManager) return createLocalLocks();
  return {
    request: (name, work) => lockManager.request(name, work),
    // A lock held by a closed tab is released with it, so a free lock means nobody is working on it.
    requestIfFree: (name, work) =>
      lockManager.request(name, { ifAvailable: true }, (lock) => (lock ? work() : undefined)),
  };
}

/** Serializes work per name inside one JavaScript realm (Node tests, browsers without Web Locks). */
export function createLocalLocks(): Locks {
  const tails = new Map<string, Promise<unknown>>();
  const request = <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const previous = tails.get(name) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(reportedElsewhere); // The caller gets `run` itself.
    tails.set(name, tail);
    void tail.then(() => {
      if (tails.get(name) === tail) tails.delete(name);
    });
    return run;
  };
  return {
    request,
    requestIfFree: async (name, work) => (tails.has(name) ? undefined : request(name, work)),
  };
}
