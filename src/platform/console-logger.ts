import type { Logger } from '../domain/logger';

/** The query switch that turns the console logger on: `?debug=1`. */
export function isDebugRequested(search: string): boolean {
  return new URLSearchParams(search).get('debug') === '1';
}

/** A logger writing to the browser console (debugging only: the default logger is silent). */
export function createConsoleLogger(target: Pick<Console, 'warn' | 'debug'>): Logger {
  return {
    warn: (message, context) => target.warn(`[mcp-agent] ${message}`, context ?? {}),
    debug: (message, context) => target.debug(`[mcp-agent] ${message}`, context ?? {}),
  };
}
