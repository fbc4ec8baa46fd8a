import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  McpError,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { PermissiveCfWorkerValidator } from './schema-validation';

/** The server asking, as the person knows it. */
export interface ElicitationServer {
  readonly id: string;
  readonly name: string;
}
/** Answers a server's elicitation; `signal` aborts when the server cancels the request. */
export type ElicitationHandler = (
  request: ElicitRequest['params'],
  server: ElicitationServer,
  signal?: AbortSignal,
) => Promise<ElicitResult>;
export type SamplingHandler = (request: CreateMessageRequest['params']) => Promise<CreateMessageResult>;

export interface ClientHandlers {
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** Answers a server's form elicitation; omitted fields get the schema's defaults (SEP-1034). Default: decline. */
  readonly elicitation?: ElicitationHandler;
  /** Answers a server's sampling request. Default: refuse. */
  readonly sampling?: SamplingHandler;
}

const DEFAULT_CLIENT_INFO = { name: 'mcp-agent', version: '0.1.0' };

/** A Client with the app's capabilities, a validator that works under a strict CSP, and its handlers. */
export function createMcpClient(
  handlers: ClientHandlers,
  onToolsChanged: () => void,
  onLog?: (params: LoggingMessageNotification['params']) => void,
  server: ElicitationServer = { id: '', name: 'A server' },
): Client {
  const client = new Client(handlers.clientInfo ?? DEFAULT_CLIENT_INFO, {
    capabilities: { elicitation: { form: { applyDefaults: true }, url: {} }, sampling: {} },
    jsonSchemaValidator: new PermissiveCfWorkerValidator(),
  });
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    if (!handlers.elicitation) return { action: 'decline' };
    return handlers.elicitation(request.params, server, extra.signal);
  });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    if (!handlers.sampling)
      throw new McpError(ErrorCode.InvalidRequest, 'This client does not allow servers to sample the model.');
    return handlers.sampling(request.params);
  });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => onToolsChanged());
  if (onLog)
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => onLog(notification.params));
  return client;
}
