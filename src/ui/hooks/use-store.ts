import { useSyncExternalStore } from 'react';

interface ReadableStore<S> {
  readonly getState: () => S;
  readonly subscribe: (listener: () => void) => () => void;
}

/** Binds a vanilla store to React; re-renders when the selected slice changes. */
export function useStore<S, T>(store: ReadableStore<S>, select: (state: S) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}
