/** The service worker's file in the build, at the app's base path (its scope is the whole app). */
export const SERVICE_WORKER_FILE = 'sw.js';

/** A new version of the app, installed and waiting for the person to reload into it. */
export interface AppUpdates {
  /** Calls `listener` when an update becomes ready; returns the unsubscribe function. */
  readonly subscribe: (listener: () => void) => () => void;
  /** Whether a new version is waiting. */
  readonly isReady: () => boolean;
  /** Switches to the waiting version and reloads this tab (only when the person asks: never mid-answer by itself). */
  readonly apply: () => void;
}
