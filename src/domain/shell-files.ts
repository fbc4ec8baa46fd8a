import { SERVICE_WORKER_FILE } from './app-shell';
import { MCP_APP_DIRECTORY, SANDBOX_DIRECTORY } from './security-headers';

/**
 * Built files the service worker does not keep: source maps, host config (_headers), the build manifest, the code
 * sandbox and the MCP Apps sandbox (documents of their own, each under its own policy), files the deployer or an authorization server reads (app-config.json, the
 * OAuth client metadata), the worker itself, and KaTeX's legacy font formats (every browser that runs the app takes woff2).
 */
const LEFT_OUT: readonly RegExp[] = [
  /\.map$/,
  /^_headers$/,
  /^\.vite\//,
  new RegExp(`^${SANDBOX_DIRECTORY}`),
  new RegExp(`^${MCP_APP_DIRECTORY}`),
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
