/** MCP's logging levels (RFC 5424 severities), least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The logger name of the app's own notes in a server's log; a server's message naming it is renamed. */
export const APP_LOGGER = 'MCP Agent';

/** One `notifications/message` of a server, as received. */
export interface ServerLogEntry {
  readonly at: number;
  readonly level: LogLevel;
  readonly logger?: string;
  /** The message's data as text (JSON for anything but a string), bounded. */
  readonly text: string;
}

/** True when `level` is at least as severe as `minimum`. */
export function isAtLeast(level: LogLevel, minimum: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(minimum);
}
