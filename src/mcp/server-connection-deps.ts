import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Logger } from '../domain/logger';
import type { ServerConfig } from '../domain/server-config';
import type { ServerState } from '../domain/server-status';
import type { ConnectionTiming } from './connection-timing';
import type { FetchLike } from './network';
import type { OAuthSession } from './oauth-session';
import type { StreamSlots } from './stream-slots';
import type { ListedTools } from './tool-requests';

// The contract of a server's connection (server-connection.ts), apart from the connection code that loads lazily.

/** What a ServerConnection is given: the network, the vault's headers, OAuth, a client factory and its listeners. */
export interface ServerConnectionDeps {
  readonly appOrigin: string;
  readonly fetch: FetchLike;
  /** The CORS relay's URL, read at each connect; servers with viaRelay go through it, and CORS failures are probed. */
  readonly relayUrl?: () => string | undefined;
  /** Slots for the long-lived streams to one plain-http address, shared by every connection of the app's tabs. */
  readonly streamSlots?: StreamSlots;
  readonly now: () => number;
  readonly timing: ConnectionTiming;
  /** Header values from the vault (bearer token, custom headers), read at each connect. */
  readonly readHeaders: (config: ServerConfig) => Promise<Record<string, string>>;
  /** The OAuth session of a server whose auth kind is oauth. */
  readonly oauth?: (config: ServerConfig) => OAuthSession | undefined;
  /** A fresh Client with the app's capabilities and handlers; `onToolsChanged` fires on tools/list_changed. */
  readonly makeClient: (onToolsChanged: () => void) => Client;
  readonly onState: (state: ServerState) => void;
  /** Called with the full tool list (and the definitions left out, and why) after every connect and list_changed. */
  readonly onTools: (listed: ListedTools, instructions?: string) => Promise<void>;
  /** A note of the app's for the server's log, which the person sees (a re-list that failed, the old tools kept). */
  readonly onNote?: (level: 'warning', text: string) => void;
  /** Where a failed close is reported (silent when omitted). */
  readonly logger?: Logger;
}

/** Stop, a timeout and progress of one tool call. */
export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /**
   * Whose call it is: a thread's turn (the model's or its code's) or an MCP App of a thread's card. The app counts the
   * calls in flight by it (a server may ask the person only during one); the connection does not use it.
   */
  readonly from?: CallFrom;
}

/** The thread a tool call is made in, and whether an MCP App of that thread (not its turn) makes it. */
export interface CallFrom {
  readonly threadId: string;
  readonly isApp: boolean;
}
