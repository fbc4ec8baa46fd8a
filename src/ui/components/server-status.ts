import type { ServerView } from '../../stores/servers-store';

/** A server's connection status as a person reads it (the manager's list and the thread's servers). */
export const SERVER_STATUS_LABEL: Record<ServerView['status'], string> = {
  connected: 'Connected',
  connecting: 'Connecting…',
  disconnected: 'Not connected',
  'needs-auth': 'Sign-in needed',
  error: 'Error',
};

/** A server that never listed its tools (never connected): "0 tools" would read as a server that has none. */
export const isToolListPending = (server: Pick<ServerView, 'hasToolList'>): boolean => !server.hasToolList;

/** Said instead of a tool count while the list is pending. */
export const TOOLS_PENDING = 'tools listed once connected';

/** Why a connected server's tool changes show late (no stream of its own), and what the person can do about it. */
export const NO_LIVE_UPDATES =
  'Tool changes are not sent live (a browser opens at most 6 connections to one http:// address); its tools are listed again as it is used.';
