import type { ServerView } from '../../stores/servers-store';

/** A server's connection status as a person reads it (the manager's list and the thread's servers). */
export const SERVER_STATUS_LABEL: Record<ServerView['status'], string> = {
  connected: 'Connected',
  connecting: 'Connecting…',
  disconnected: 'Not connected',
  'needs-auth': 'Sign-in needed',
  error: 'Error',
};

/** A server never connected has listed no tools yet: "0 tools" would read as a server that has none. */
export const isToolListPending = (server: Pick<ServerView, 'toolCount' | 'status'>): boolean =>
  server.toolCount === 0 && server.status !== 'connected';

/** Said instead of a tool count while the list is pending. */
export const TOOLS_PENDING = 'tools listed once connected';
