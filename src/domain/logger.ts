/** Where the app reports what it swallowed on purpose (best-effort writes, closes): silent unless debugging. */
export interface Logger {
  /** A failure the app went on past; `context` names what was being done (never a secret). */
  warn(message: string, context?: Readonly<Record<string, unknown>>): void;
  /** Detail for debugging (a tool call's trace). */
  debug(message: string, context?: Readonly<Record<string, unknown>>): void;
}

/** The default: says nothing. */
export const silentLogger: Logger = { warn: () => undefined, debug: () => undefined };

/** A handler for a promise whose failure the app goes on past: logs it with what was being done, resolves to undefined. */
export function logFailure(logger: Logger, message: string, context: Readonly<Record<string, unknown>> = {}) {
  return (error: unknown): undefined => {
    logger.warn(message, { ...context, error });
    return undefined;
  };
}
