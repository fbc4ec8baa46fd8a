import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../domain/errors';
import {
  AuthRequiredError,
  CorsBlockedError,
  InvalidServerResponseError,
  McpHttpError,
  McpProtocolError,
  ServerUnreachableError,
} from '../domain/mcp-errors';
import type { ToolCallFailure } from '../domain/tool-result';
import { NetworkFailure } from './network';

export interface ErrorContext {
  readonly serverUrl: string;
  readonly appOrigin: string;
  /** Whether this server has answered before; a silent server that once answered is down, not CORS-blocked. */
  readonly hasAnswered: boolean;
}

/** Maps whatever the SDK or the network threw to one of the app's typed connection errors. */
export function toConnectionError(error: unknown, context: ErrorContext): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof UnauthorizedError) return new AuthRequiredError();
  if (error instanceof NetworkFailure || error instanceof TypeError) {
    const crossOrigin = new URL(context.serverUrl).origin !== context.appOrigin;
    return crossOrigin && !context.hasAnswered
      ? new CorsBlockedError(context.appOrigin, context.serverUrl)
      : new ServerUnreachableError(context.serverUrl);
  }
  if (error instanceof StreamableHTTPError || error instanceof SseError) return fromStatus(error.code, error.message);
  if (error instanceof SyntaxError) return new InvalidServerResponseError('invalid JSON');
  if (error instanceof McpError) {
    if (error.code === Number(ErrorCode.ConnectionClosed)) return new ServerUnreachableError(context.serverUrl);
    return new McpProtocolError(error.code, error.message);
  }
  if (error instanceof Error && error.name === 'ZodError')
    return new InvalidServerResponseError('malformed JSON-RPC message');
  return new McpProtocolError(-1, error instanceof Error ? error.message : String(error));
}

function fromStatus(code: number | undefined, message: string): AppError {
  if (code === 401) return new AuthRequiredError();
  if (code === 403)
    return new AuthRequiredError('The server refused access (HTTP 403). Check the credentials and their permissions.');
  if (code === -1) return new InvalidServerResponseError(message.replace(/^Streamable HTTP error: /, '').slice(0, 120));
  if (code === undefined) return new InvalidServerResponseError(message.slice(0, 120));
  const words = serverWords(message);
  const hint = httpHint(code);
  return new McpHttpError(code, words ? `${hint ? `${hint}; ` : ''}it said “${words}”` : hint);
}

/** Status names a body often repeats: saying them again adds nothing to "HTTP 500". */
const STATUS_NAMES = new Set([
  'bad request',
  'not found',
  'method not allowed',
  'internal server error',
  'bad gateway',
  'service unavailable',
  'gateway timeout',
]);

/**
 * What the server wrote in the body of its HTTP error (the SDK puts the body in the message), when it says more than
 * the status's name: a JSON error's message, or plain text, on one line and cut at 200 characters. An HTML page says
 * nothing here.
 */
function serverWords(message: string): string | undefined {
  // Only a POST's answer carries the body; the SDK's other messages ("Failed to open SSE stream: …") are its own words.
  const posted = /^(?:Streamable HTTP error: )?Error POSTing to endpoint: ([\s\S]*)$/.exec(message);
  const body = posted?.[1]?.trim();
  if (!body || body.startsWith('<')) return undefined;
  let text = body;
  try {
    const parsed = JSON.parse(body) as {
      error?: unknown;
      message?: unknown;
      error_description?: unknown;
      reason?: unknown;
    };
    const error = parsed.error as { message?: unknown } | string | undefined;
    // The sentence before the code: an OAuth error's description, then a message, then a bare error code.
    const said = [
      typeof error === 'object' ? error?.message : undefined,
      parsed.error_description,
      parsed.reason,
      parsed.message,
      typeof error === 'string' ? error : undefined,
    ].find((value): value is string => typeof value === 'string');
    if (said !== undefined) text = said;
  } catch {
    // Not JSON: the text as it is.
  }
  text = text.replace(/\s+/g, ' ').trim();
  if (!text || STATUS_NAMES.has(text.toLowerCase())) return undefined;
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function httpHint(status: number): string {
  if (status === 404) return 'nothing at this URL speaks MCP; check the path (often /mcp)';
  if (status === 405) return 'this URL does not accept MCP requests';
  if (status >= 500) return 'the server failed; try again later';
  return '';
}

/**
 * Maps a failed tools/call to a failure the model and the person can read; `phase` says whether it failed while
 * connecting (the tool was not called) or during the call.
 */
export function toCallFailure(
  error: unknown,
  context: ErrorContext & { readonly isAborted: boolean; readonly timeoutMs: number },
  phase: 'connect' | 'call' = 'call',
): ToolCallFailure {
  if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout)) {
    return context.isAborted
      ? { kind: 'aborted', message: 'The tool call was cancelled.' }
      : {
          kind: 'timeout',
          message: `The tool did not answer within ${Math.round(context.timeoutMs / 1000)} s; the call was cancelled.`,
        };
  }
  if (context.isAborted) return { kind: 'aborted', message: 'The tool call was cancelled.' };
  if (error instanceof McpError && error.code === Number(ErrorCode.InvalidParams))
    return { kind: 'invalid-arguments', message: error.message };
  const typed = toConnectionError(error, context);
  switch (typed.kind) {
    case 'cors':
      return { kind: 'cors', message: typed.message };
    case 'unreachable':
      return {
        kind: 'connection',
        message:
          phase === 'connect'
            ? `The server could not be reached, so the tool was not called. ${typed.message}`
            : `The connection to the server was lost during the call. ${typed.message}`,
      };
    case 'http':
      return { kind: 'http', message: typed.message, status: (typed as McpHttpError).status };
    case 'auth-required':
      return { kind: 'auth-required', message: typed.message };
    case 'invalid-response':
      return { kind: 'invalid-response', message: typed.message };
    default:
      return { kind: 'protocol', message: `The server reported an error: ${typed.message}` };
  }
}

/** An expired MCP session: 404 as the spec says; some servers answer 400 for an unknown session id. */
export function isSessionExpired(error: unknown, hadSession: boolean): boolean {
  return hadSession && error instanceof StreamableHTTPError && (error.code === 404 || error.code === 400);
}
