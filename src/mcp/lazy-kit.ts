import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpClientUnavailableError } from '../domain/mcp-errors';
import type { ServerConfig } from '../domain/server-config';
import type { ServerState } from '../domain/server-status';
import { failedResult, type ToolCallResult } from '../domain/tool-result';
import type * as Kit from './connection-kit';
import type { ServerConnection } from './server-connection';
import type { CallOptions } from './server-connection-deps';

export type ConnectionKit = typeof Kit;

/** A loader that imports once; a failed import becomes a typed error and is tried again on the next call. */
export function kitLoader(importKit: () => Promise<ConnectionKit>): {
  load: () => Promise<ConnectionKit>;
  loaded: () => ConnectionKit | undefined;
} {
  let loading: Promise<ConnectionKit> | undefined;
  let kit: ConnectionKit | undefined;
  const load = () =>
    (loading ??= importKit().then(
      (module) => (kit = module),
      (error: unknown) => {
        loading = undefined;
        throw new McpClientUnavailableError((error instanceof Error ? error.message : String(error)).slice(0, 200));
      },
    ));
  return { load, loaded: () => kit };
}

const appKit = kitLoader(() => import('./connection-kit'));
/** Loads the connection code (the MCP SDK, transports, OAuth, the schema validator) on first use. */
export const loadConnectionKit = appKit.load;
/** The connection code if it has loaded already. */
export const loadedConnectionKit = appKit.loaded;

/** Runs `use` with the connection code, or `unavailable` with the typed error when it cannot be loaded. */
export async function withKit<T>(
  use: (kit: ConnectionKit) => T | Promise<T>,
  unavailable: (error: McpClientUnavailableError) => T,
): Promise<T> {
  let kit: ConnectionKit;
  try {
    kit = await loadConnectionKit();
  } catch (error) {
    return unavailable(error as McpClientUnavailableError);
  }
  return use(kit);
}

/** A failed call for code that could not be loaded. */
export const unavailableResult = (error: Error): ToolCallResult =>
  failedResult({ kind: 'connection', message: error.message }, 0);

/** A ServerConnection whose code loads on first use; until then it is disconnected. Same surface. */
export class LazyConnection {
  private real?: ServerConnection;
  private creating?: Promise<ServerConnection>;
  private state: ServerState = { status: 'disconnected' };
  private isDisposed = false;

  constructor(
    private config: ServerConfig,
    private readonly create: (kit: ConnectionKit, config: ServerConfig) => ServerConnection,
    private readonly onState: (state: ServerState) => void,
    private readonly loadKit: () => Promise<ConnectionKit> = loadConnectionKit,
  ) {}

  get current(): ServerState {
    return this.real?.current ?? this.state;
  }

  async reconfigure(config: ServerConfig): Promise<void> {
    this.config = config;
    await this.real?.reconfigure(config);
  }

  async ensureConnected(): Promise<Client> {
    return (await this.load()).ensureConnected();
  }

  /** Never throws, like ServerConnection.callTool. */
  async callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<ToolCallResult> {
    return this.load().then(
      (real) => real.callTool(name, args, options),
      (error: Error) => unavailableResult(error),
    );
  }

  async disconnect(): Promise<void> {
    await this.real?.disconnect();
  }

  async recheck(): Promise<void> {
    await this.real?.recheck();
  }

  async relist(): Promise<void> {
    await this.real?.relist();
  }

  async dispose(): Promise<void> {
    this.isDisposed = true;
    await this.real?.dispose();
  }

  private load(): Promise<ServerConnection> {
    if (this.real) return Promise.resolve(this.real);
    this.creating ??= this.loadKit().then(
      (kit) => {
        this.real ??= this.create(kit, this.config);
        if (this.isDisposed) void this.real.dispose();
        return this.real;
      },
      (error: unknown) => {
        this.creating = undefined;
        this.state = {
          status: 'error',
          lastError: error instanceof McpClientUnavailableError ? error : new McpClientUnavailableError(String(error)),
        };
        this.onState(this.state);
        throw error;
      },
    );
    return this.creating;
  }
}
