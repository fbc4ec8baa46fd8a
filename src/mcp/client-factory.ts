import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ErrorCode,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitResult,
  type JSONRPCRequest,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { SamplingRejectedError, type SamplingReply, type SamplingRequest } from '../domain/sampling';
import { PermissiveCfWorkerValidator } from './schema-validation';

/** The server asking, as the person knows it. */
export interface ElicitationServer {
  readonly id: string;
  readonly name: string;
}
/** A server's elicitation request as it came: its form schema is for the app to judge (parseElicitationSchema). */
export type ElicitationRequest =
  | { readonly mode?: 'form'; readonly message: string; readonly requestedSchema: unknown }
  | { readonly mode: 'url'; readonly message: string; readonly url: string; readonly elicitationId: string };
/** Answers a server's elicitation; `signal` aborts when the server cancels the request. */
export type ElicitationHandler = (
  request: ElicitationRequest,
  server: ElicitationServer,
  signal?: AbortSignal,
) => Promise<ElicitResult>;
/** Runs a server's sampling request once the person approves it; throws SamplingRejectedError when they do not. */
export type SamplingHandler = (
  request: SamplingRequest,
  server: ElicitationServer,
  signal?: AbortSignal,
) => Promise<SamplingReply>;

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
  events: { readonly onPromptsChanged?: () => void; readonly onResourcesChanged?: () => void } = {},
): Client {
  const client = new Client(handlers.clientInfo ?? DEFAULT_CLIENT_INFO, {
    capabilities: { elicitation: { form: {}, url: {} }, sampling: {} },
    jsonSchemaValidator: new PermissiveCfWorkerValidator(),
  });
  // Not setRequestHandler: the SDK checks an elicitation against its own strict schema first and answers one outside
  // the spec's subset with a zod dump (-32603) the person never sees; the app's own check declines it and says why.
  client.fallbackRequestHandler = async (request, extra) => {
    if (request.method !== 'elicitation/create') throw rpcError(ErrorCode.MethodNotFound, 'Method not found');
    const params = parseElicitParams(request);
    if (!handlers.elicitation) return { action: 'decline' };
    return handlers.elicitation(params, server, extra.signal);
  };
  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
    if (!handlers.sampling)
      throw rpcError(ErrorCode.InvalidRequest, 'This client does not allow servers to sample the model.');
    // Tools in sampling (SEP-1577) are not declared (capabilities.sampling.tools), so a request carrying them is wrong.
    if (request.params.tools !== undefined || request.params.toolChoice !== undefined)
      throw rpcError(ErrorCode.InvalidParams, 'This client does not support tools in sampling requests.');
    try {
      return toCreateMessageResult(await handlers.sampling(toSamplingRequest(request.params), server, extra.signal));
    } catch (error) {
      // The spec's code for a request the person rejected (Sampling, "Error Handling": -1).
      if (error instanceof SamplingRejectedError) throw rpcError(USER_REJECTED, error.message);
      throw error;
    }
  });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => onToolsChanged());
  const { onPromptsChanged, onResourcesChanged } = events;
  if (onPromptsChanged) client.setNotificationHandler(PromptListChangedNotificationSchema, () => onPromptsChanged());
  if (onResourcesChanged)
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => onResourcesChanged());
  if (onLog)
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => onLog(notification.params));
  return client;
}

const USER_REJECTED = -1;

/** An elicitation's params as far as the app needs them; the form's schema is left to the app's own check. */
const ElicitParams = z.union([
  z.object({ mode: z.literal('url'), message: z.string(), url: z.string(), elicitationId: z.string() }),
  z.object({ mode: z.literal('form').optional(), message: z.string(), requestedSchema: z.unknown() }),
]);

function parseElicitParams(request: JSONRPCRequest): ElicitationRequest {
  const parsed = ElicitParams.safeParse(request.params);
  if (parsed.success) return parsed.data;
  const mode = (request.params as { mode?: unknown } | undefined)?.mode;
  throw rpcError(
    ErrorCode.InvalidParams,
    typeof mode === 'string' && mode !== 'form' && mode !== 'url'
      ? `This client does not support elicitation mode "${mode.slice(0, 40)}".`
      : 'Invalid elicitation request: it needs a message, and a URL and an elicitationId in URL mode.',
  );
}

/**
 * An error the SDK answers a server's request with as `{ code, message }`. Not McpError: its message carries an
 * "MCP error N: " prefix the SDK would send along, and the server's own McpError adds it again.
 */
function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** The SDK's sampling request as the app's own (content as a list; only the kinds the app knows). */
function toSamplingRequest(params: CreateMessageRequest['params']): SamplingRequest {
  const prefs = params.modelPreferences;
  return {
    messages: params.messages.map((message) => ({
      role: message.role,
      content: (Array.isArray(message.content) ? message.content : [message.content]).map(
        (part: { type: string; text?: unknown; mimeType?: unknown; data?: unknown }) => {
          if (part.type === 'text') return { type: 'text' as const, text: String(part.text) };
          if (part.type === 'image' || part.type === 'audio')
            return { type: part.type, mimeType: String(part.mimeType), data: String(part.data) };
          throw rpcError(ErrorCode.InvalidParams, `Sampling content of type "${part.type}" is not supported.`);
        },
      ),
    })),
    ...(params.systemPrompt !== undefined ? { systemPrompt: params.systemPrompt } : {}),
    maxTokens: params.maxTokens,
    modelHints: (prefs?.hints ?? []).flatMap((hint) => (hint.name ? [hint.name] : [])),
    priorities: {
      ...(prefs?.costPriority !== undefined ? { cost: prefs.costPriority } : {}),
      ...(prefs?.speedPriority !== undefined ? { speed: prefs.speedPriority } : {}),
      ...(prefs?.intelligencePriority !== undefined ? { intelligence: prefs.intelligencePriority } : {}),
    },
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
    ...(params.stopSequences ? { stopSequences: params.stopSequences } : {}),
    ...(params.includeContext ? { includeContext: params.includeContext } : {}),
  };
}

const STOP_REASONS: Record<string, string> = {
  end_turn: 'endTurn',
  max_tokens: 'maxTokens',
  stop_sequence: 'stopSequence',
};

function toCreateMessageResult(reply: SamplingReply): CreateMessageResult {
  return {
    role: 'assistant',
    content: { type: 'text', text: reply.text },
    model: reply.model,
    stopReason: STOP_REASONS[reply.stopReason] ?? reply.stopReason,
  };
}
