import type { AppError } from './errors';

/** The life of one server's connection, as the person sees it. */
export type ServerStatus = 'disconnected' | 'connecting' | 'connected' | 'needs-auth' | 'error';

export interface ServerState {
  readonly status: ServerStatus;
  /** The last connection error, kept until the next successful connect. */
  readonly lastError?: AppError;
  /** Which transport the connection uses once connected. */
  readonly transport?: 'http' | 'sse';
  /**
   * False when connected without the server's own stream (the browser had no connection to spare for it): the server
   * cannot tell the app its tools changed, so the app lists them again as it uses the server.
   */
  readonly liveUpdates?: false;
  /** Connected to a server that declares the prompts capability (its prompts are offered with `/`). */
  readonly offersPrompts?: true;
}
