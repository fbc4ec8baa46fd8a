/** Exclusive locks by name, held across the tabs of this origin where the browser has Web Locks. */
export interface Locks {
  request<T>(name: string, work: () => Promise<T>): Promise<T>;
}

/** Web Locks (navigator.locks) when present, else a lock that serializes within this page only. */
export function createLocks(lockManager: LockManager | undefined): Locks {
  if (lockManager) return { request: (name, work) => lockManager.request(name, work) };
  return createLocalLocks();
}

/** Serializes work per name inside one JavaScript realm (Node tests, browsers without Web Locks). */
export function createLocalLocks(): Locks {
  const tails = new Map<string, Promise<unknown>>();
  return {
    request<T>(name: string, work: () => Promise<T>): Promise<T> {
      const previous = tails.get(name) ?? Promise.resolve();
      const run = previous.then(work, work);
      const tail = run.catch(() => undefined);
      tails.set(name, tail);
      void tail.then(() => {
        if (tails.get(name) === tail) tails.delete(name);
      });
      return run;
    },
  };
}
