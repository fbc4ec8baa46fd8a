import { useSyncExternalStore } from 'react';

// The one app allowed to fill the window (by its card's key): a second app's full screen takes the place of the first.
let owner: string | undefined;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Puts the app of `key` in full screen; any other app there goes back inline. */
export function takeFullscreen(key: string): void {
  if (owner === key) return;
  owner = key;
  notify();
}

/** Takes the app of `key` out of full screen (nothing when it is not there). */
export function releaseFullscreen(key: string): void {
  if (owner !== key) return;
  owner = undefined;
  notify();
}

/** Whether the app of `key` fills the window now. */
export function useIsFullscreen(key: string): boolean {
  return useSyncExternalStore(subscribe, () => owner === key);
}
