import { AppError } from '../domain/errors';
import { McpProtocolError } from '../domain/mcp-errors';
import type { ServerConfig } from '../domain/server-config';
import type { ServerStatus } from '../domain/server-status';
import { ServerConnection } from './server-connection';
import type { ServerConnectionDeps } from './server-connection-deps';

/** What "Test connection" found: the server answered MCP and listed its tools, or why not. */
export type ConnectionTest =
  | { readonly ok: true; readonly toolCount: number; readonly transport: 'http' | 'sse' }
  | { readonly ok: false; readonly status: Exclude<ServerStatus, 'connected'>; readonly error: AppError };

/** Connects once with a throwaway connection, lists the tools and closes; nothing is registered or stored. Never throws. */
export async function probeServer(
  config: ServerConfig,
  deps: Omit<ServerConnectionDeps, 'onState' | 'onTools'>,
): Promise<ConnectionTest> {
  let toolCount = 0;
  const connection = new ServerConnection(config, {
    ...deps,
    onState: () => undefined,
    onTools: ({ tools }) => {
      toolCount = tools.length;
      return Promise.resolve();
    },
  });
  try {
    await connection.ensureConnected();
    return { ok: true, toolCount, transport: connection.current.transport ?? 'http' };
  } catch (error) {
    const { status, lastError } = connection.current;
    const typed = lastError ?? (error instanceof AppError ? error : new McpProtocolError(-1, String(error)));
    return { ok: false, status: status === 'needs-auth' ? 'needs-auth' : 'error', error: typed };
  } finally {
    await connection.dispose();
  }
}
