import type { LogLevel, ServerLogEntry } from '../domain/server-log';
import { APP_LOGGER, LOG_LEVELS } from '../domain/server-log';

/** Entries one server keeps (the oldest are dropped past it): a chatty server cannot fill the page's memory. */
export const MAX_LOG_ENTRIES = 500;
/** Characters one entry keeps of its data. */
export const MAX_LOG_TEXT = 4_000;

/** The `notifications/message` of each server (and the app's notes about it), newest last, in memory only (never in the chat or in storage). */
export class ServerLogs {
  private readonly entries = new Map<string, ServerLogEntry[]>();

  /**
   * Records a message's params (level, logger, data); an unknown level counts as info. A server's message whose logger
   * claims to be the app is renamed, so it cannot pass for the app's own note (`isApp`).
   */
  add(
    serverId: string,
    params: { level?: unknown; logger?: unknown; data?: unknown },
    at: number,
    isApp = false,
  ): void {
    const level = LOG_LEVELS.includes(params.level as LogLevel) ? (params.level as LogLevel) : 'info';
    const logger =
      typeof params.logger === 'string' && !isApp && params.logger.trim().toLowerCase() === APP_LOGGER.toLowerCase()
        ? `${params.logger} (sent by the server)`
        : params.logger;
    const text = typeof params.data === 'string' ? params.data : safeJson(params.data);
    const entry: ServerLogEntry = {
      at,
      level,
      ...(typeof logger === 'string' ? { logger: logger.slice(0, 200) } : {}),
      text: text.length > MAX_LOG_TEXT ? `${text.slice(0, MAX_LOG_TEXT)}…` : text,
    };
    const list = [...(this.entries.get(serverId) ?? []), entry];
    this.entries.set(serverId, list.length > MAX_LOG_ENTRIES ? list.slice(-MAX_LOG_ENTRIES) : list);
  }

  list(serverId: string): readonly ServerLogEntry[] {
    return this.entries.get(serverId) ?? [];
  }

  clear(serverId: string): void {
    this.entries.delete(serverId);
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
