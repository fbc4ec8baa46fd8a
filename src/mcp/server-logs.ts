import type { LogLevel, ServerLogEntry } from '../domain/server-log';
import { APP_LOGGER, LOG_LEVELS } from '../domain/server-log';

/** Entries one server keeps of its own (the oldest are dropped past it): a chatty server cannot fill the page's memory. */
export const MAX_LOG_ENTRIES = 500;
/** The app's notes kept per server, apart from the server's entries: a server's flood cannot push them out. */
export const MAX_APP_NOTES = 50;
/** Characters one entry keeps of its data. */
export const MAX_LOG_TEXT = 4_000;

interface Kept {
  readonly server: readonly ServerLogEntry[];
  readonly app: readonly ServerLogEntry[];
  /** Both, in time order; made when first read after a change. */
  merged?: readonly ServerLogEntry[];
}

/**
 * The one store of what shows in a server's log: its `notifications/message` and the app's own notes about it (a tool
 * list it cut, a request it declined, a flood it held back), newest last, in memory only (never in the chat or in
 * storage). Removing the server forgets both.
 */
export class ServerLogs {
  private readonly entries = new Map<string, Kept>();

  /**
   * Records a server's message params (level, logger, data); an unknown level counts as info. A logger that claims to
   * be the app is renamed, so it cannot pass for the app's own note.
   */
  add(serverId: string, params: { level?: unknown; logger?: unknown; data?: unknown }, at: number): void {
    const level = LOG_LEVELS.includes(params.level as LogLevel) ? (params.level as LogLevel) : 'info';
    const logger =
      typeof params.logger === 'string' && params.logger.trim().toLowerCase() === APP_LOGGER.toLowerCase()
        ? `${params.logger} (sent by the server)`
        : params.logger;
    const text = typeof params.data === 'string' ? params.data : safeJson(params.data);
    this.keep(serverId, 'server', MAX_LOG_ENTRIES, {
      at,
      level,
      ...(typeof logger === 'string' ? { logger: logger.slice(0, 200) } : {}),
      text: cut(text),
    });
  }

  /** Records the app's own note about a server, under the app's logger name. */
  note(serverId: string, text: string, level: LogLevel, at: number): void {
    this.keep(serverId, 'app', MAX_APP_NOTES, { at, level, logger: APP_LOGGER, text: cut(text) });
  }

  /** The server's entries and the app's notes about it, in time order. */
  list(serverId: string): readonly ServerLogEntry[] {
    const kept = this.entries.get(serverId);
    if (!kept) return [];
    kept.merged ??= kept.app.length === 0 ? kept.server : [...kept.server, ...kept.app].sort((a, b) => a.at - b.at);
    return kept.merged;
  }

  clear(serverId: string): void {
    this.entries.delete(serverId);
  }

  private keep(serverId: string, from: 'server' | 'app', cap: number, entry: ServerLogEntry): void {
    const kept = this.entries.get(serverId) ?? { server: [], app: [] };
    const list = [...kept[from], entry];
    this.entries.set(serverId, { ...kept, [from]: list.length > cap ? list.slice(-cap) : list, merged: undefined });
  }
}

const cut = (text: string) => (text.length > MAX_LOG_TEXT ? `${text.slice(0, MAX_LOG_TEXT)}…` : text);

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
