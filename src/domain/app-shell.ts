/** The service worker's file in the build, at the app's base path (its scope is the whole app). */
export const SERVICE_WORKER_FILE = 'sw.js';

/**
 * Built files the service worker does not keep: source maps, host config (_headers), the build manifest, the code
 * sandbox (its own document and policy), files the deployer or an authorization server reads (app-config.json, the
 * OAuth client metadata), the worker itself, and KaTeX's legacy font formats (every browser that runs the app takes woff2).
 */
const LEFT_OUT: readonly RegExp[] = [
  /\.map$/,
  /^_headers$/,
  /^\.vite\//,
  /^sandbox\//,
  /^oauth\//,
  /^app-config\.json$/,
  new RegExp(`^${SERVICE_WORKER_FILE.replace('.', '\\.')}$`),
  /\.(woff|ttf)$/,
];

/** The app shell the service worker keeps for offline use: the build's files (paths relative to it), sorted. */
export function shellFiles(paths: readonly string[]): string[] {
  return paths
    .map((path) => path.replace(/\\/g, '/'))
    .filter((path) => !LEFT_OUT.some((pattern) => pattern.test(path)))
    .sort();
}

/** A new version of the app, installed and waiting for the person to reload into it. */
export interface AppUpdates {
  /** Calls `listener` when an update becomes ready; returns the unsubscribe function. */
  readonly subscribe: (listener: () => void) => () => void;
  /** Whether a new version is waiting. */
  readonly isReady: () => boolean;
  /** Switches to the waiting version and reloads this tab (only when the person asks: never mid-answer by itself). */
  readonly apply: () => void;
}
