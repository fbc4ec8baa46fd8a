import { useSyncExternalStore } from 'react';

interface ReadableStore<S> {
  readonly getState: () => S;
  readonly subscribe: (listener: () => void) => () => void;
}

/** Binds a vanilla store to React; re-renders when the selected slice changes. */
export function useStore<S, T>(store: ReadableStore<S>, select: (state: S) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}

const noSubscription = () => () => undefined;

/** As useStore, for a store that may not exist yet (start-up): `fallback` until it does; keep it a stable value. */
export function useStoreIfAny<S, T>(store: ReadableStore<S> | undefined, select: (state: S) => T, fallback: T): T {
  return useSyncExternalStore(store?.subscribe ?? noSubscription, () => (store ? select(store.getState()) : fallback));
}
