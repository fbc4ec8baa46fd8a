import { APP_LOGGER, type LogLevel, type ServerLogEntry } from '../domain/server-log';

/** The app's own notes about a server (a request it declined, a flood it stopped showing), shown in that server's log. */
export interface ServerNotes {
  add(serverId: string, text: string, level?: LogLevel): void;
  of(serverId: string): readonly ServerLogEntry[];
  subscribe(listener: (serverId: string) => void): () => void;
}

/** The logger name the app's notes carry in a server's log, so no one takes them for the server's words. */
export const APP_NOTE_LOGGER = APP_LOGGER;
const KEPT = 50;

/** Notes kept in memory per server (the newest 50), as the server's own log is. */
export function createServerNotes(now: () => number = Date.now): ServerNotes {
  const notes = new Map<string, ServerLogEntry[]>();
  const listeners = new Set<(serverId: string) => void>();
  return {
    add(serverId, text, level = 'warning') {
      const list = [...(notes.get(serverId) ?? []), { at: now(), level, logger: APP_NOTE_LOGGER, text }];
      notes.set(serverId, list.slice(-KEPT));
      listeners.forEach((listener) => listener(serverId));
    },
    of: (serverId) => notes.get(serverId) ?? [],
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** A server's log and the app's notes about it, in time order. */
export function withNotes(
  logs: readonly ServerLogEntry[],
  notes: readonly ServerLogEntry[],
): readonly ServerLogEntry[] {
  if (notes.length === 0) return logs;
  return [...logs, ...notes].sort((a, b) => a.at - b.at);
}
