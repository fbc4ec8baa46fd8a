import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { logFailure, silentLogger } from '../domain/logger';
import { McpProtocolError } from '../domain/mcp-errors';
import type { ServerState } from '../domain/server-status';
import { isSessionExpired, toConnectionError, type ErrorContext } from './classify-error';
import type { OpenConnection } from './connect';
import { ListedToolShapes } from './listed-tool-shapes';
import type { ServerConnectionDeps } from './server-connection-deps';
import { listAllTools, type ListedTools } from './tool-requests';

// The tool listing of a server's connection (server-connection.ts): at connect, and again on list_changed or a re-read.

/** Errors of a request that say the connection, or its credentials, are gone (not only this request failed). */
const GONE = new Set(['unreachable', 'cors', 'auth-required']);

/** What the tool listing uses of its server's connection. */
export interface ToolListHost {
  readonly deps: () => ServerConnectionDeps;
  readonly serverId: () => string;
  readonly open: () => OpenConnection | undefined;
  readonly errorContext: () => ErrorContext;
  readonly setState: (state: ServerState) => void;
}

/** Lists a connection's tools and keeps what their definitions say of calling them. */
export class ConnectionTools {
  /** What the listed tools' definitions say of calling them (task support, output schema). */
  readonly shapes = new ListedToolShapes();
  /** When the tools were last listed (now()), for the re-reads of a connection without a stream. */
  listedAt = 0;

  constructor(private readonly host: ToolListHost) {}

  /** Lists every tool and notes how each is called (task support, output schema). */
  async listAll(client: Client): Promise<ListedTools> {
    this.listedAt = this.host.deps().now();
    const listed = await listAllTools(client);
    this.shapes.take(listed.tools);
    return listed;
  }

  /**
   * Lists the tools again on the open connection; resolves to whether the list was taken in. A failure keeps the
   * previous catalog and is logged, and noted in the server's log; the connection stays as it was, unless the failure
   * says the session or the connection is gone: then it is the server's error (the next connect lists again).
   */
  async refresh(): Promise<boolean> {
    const { host } = this;
    const deps = host.deps();
    const open = host.open();
    if (!open) return false;
    const hadSession = open.transport.sessionId !== undefined;
    try {
      await deps.onTools(await this.listAll(open.client), open.client.getInstructions());
      return true;
    } catch (error) {
      logFailure(deps.logger ?? silentLogger, 'Listing tools failed', { serverId: host.serverId() })(error);
      const typed = toConnectionError(error, host.errorContext());
      const kept = `Listing its tools failed, so the tools listed before are kept. ${typed.message}`;
      const isGone = isSessionExpired(error, hadSession) || GONE.has(typed.kind);
      if (!isGone) deps.onNote?.('warning', kept);
      else if (host.open() === open)
        host.setState({
          status: 'error',
          lastError: typed instanceof McpProtocolError ? new McpProtocolError(typed.code, kept) : typed,
        });
      return false;
    }
  }
}
