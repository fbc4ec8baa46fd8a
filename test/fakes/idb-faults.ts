import { IDBObjectStore as FakeObjectStore } from 'fake-indexeddb';

type StoreMethod = 'add' | 'put' | 'delete';

/**
 * Fault injection at the browser boundary: makes `method` on object store `storeName` throw `error`, as the
 * browser does on a full disk (only for the calls `when` picks, if given: a nearly full disk refuses only big writes).
 * Returns a function that restores the real method.
 */
export function failObjectStore(
  storeName: string,
  method: StoreMethod,
  error: DOMException,
  when: (...args: unknown[]) => boolean = () => true,
): () => void {
  const proto = FakeObjectStore.prototype as unknown as Record<
    StoreMethod,
    (this: IDBObjectStore, ...args: unknown[]) => IDBRequest
  >;
  const real = proto[method];
  proto[method] = function (this: IDBObjectStore, ...args: unknown[]) {
    if (this.name === storeName && when(...args)) throw error;
    return real.apply(this, args);
  };
  return () => {
    proto[method] = real;
  };
}
