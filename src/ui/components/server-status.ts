import type { ServerView } from '../../stores/servers-store';

/** A server's connection status as a person reads it (the manager's list and the thread's servers). */
export const SERVER_STATUS_LABEL: Record<ServerView['status'], string> = {
  connected: 'Connected',
  connecting: 'Connecting…',
  disconnected: 'Not connected',
  'needs-auth': 'Sign-in needed',
  error: 'Error',
};
