// A fake Anthropic Messages API on 127.0.0.1 that answers scripted turns with the real streaming protocol.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type Anthropic from '@anthropic-ai/sdk';
import { answerJson, answerStream } from './fake-anthropic-answer';
import { errorBody, errorType, type AnswerContext, type ApiErrorType, type Turn } from './fake-anthropic-protocol';
import { invalidRequestReason } from './fake-anthropic-validate';
import { contractViolation } from './fake-anthropic-contract';
import { MAX_REQUEST_BYTES, mediaProblem } from './fake-anthropic-media';
import { PromptCache, promptBlocks, type CacheUsage } from './fake-anthropic-cache';
import { DEFAULT_FAKE_MODELS, modelsPage, servedModel, type FakeModel } from './fake-anthropic-models';
import {
  afterLastCompaction,
  compactionProblem,
  compactTrigger,
  fakeCompaction,
  unsupportedBetaProblem,
} from './fake-anthropic-compaction';
import { CONTAINER_IDLE_MS, createCodeRuns, programmaticProblem } from './fake-anthropic-programmatic';
import { listenOnLoopback } from '../fixtures/listen-loopback';
import { corsHeaders, flatHeaders, parseJson, readBody, sendError, sendJson } from './fake-anthropic-http';

export type * from './fake-anthropic-protocol';
export type { FakeModel } from './fake-anthropic-models';

/** The JSON body the client sent to POST /v1/messages. */
export type MessagesRequestBody = Omit<Anthropic.MessageCreateParamsNonStreaming, 'stream'> & { stream?: boolean };

export interface RecordedRequest {
  /** Position among the POST /v1/messages requests, from 0. */
  index: number;
  /** Path and query, e.g. `/v1/messages` or `/v1/messages?beta=true`. */
  path: string;
  /** Lowercased names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  body: MessagesRequestBody;
  stream: boolean;
  /** body.tools' names, in order. */
  toolNames: string[];
  /** Names of the tools sent with `defer_loading: true`. */
  deferredToolNames: string[];
  /** The input tokens as the fake's prompt cache accounted them; absent for refused requests. */
  usage?: CacheUsage;
  /** The input tokens the model's window held: every block from the last compaction block on. */
  inputTokens?: number;
  /** The fake compacted this request's context server-side (a compaction block came first in the answer). */
  isCompacted?: boolean;
}

/** A turn, or a function that picks one from the request (e.g. from the tools it offers). */
export type ScriptedTurn = Turn | ((request: RecordedRequest) => Turn | Promise<Turn>);

export interface FakeAnthropicOptions {
  /** When set, only this key (as x-api-key or `Authorization: Bearer`) is accepted; otherwise any non-empty one. */
  apiKey?: string;
  /** GET /v1/models answers these, and messages are served for them only (default: four Claude models). */
  models?: FakeModel[];
  /**
   * Answer 400 to bodies the real API rejects (fake-anthropic-validate.ts, fake-anthropic-contract.ts), and 404 to a
   * model it does not serve. Default true.
   */
  validateRequests?: boolean;
  /** Context window of models that do not list `max_input_tokens` (default 200,000). */
  contextWindowTokens?: number;
  /** The clock of the prompt cache's 5-minute TTL (default Date.now). */
  now?: () => number;
  /** Like the real API, answer 401 to a request with an Origin but no `anthropic-dangerous-direct-browser-access: true`. Default true. */
  requireBrowserAccessHeader?: boolean;
  /**
   * The `anthropic-beta` values this endpoint offers; others are refused with the API's 400 for an unknown beta (an
   * Anthropic-compatible endpoint without compaction). Default: every beta the fake knows.
   */
  supportedBetas?: string[];
  /**
   * The code execution tool versions this endpoint offers (default: every one the fake knows); a request with another
   * is refused as the API refuses an unknown tool type (an Anthropic-compatible endpoint without code execution).
   */
  codeExecutionTypes?: string[];
}

export interface FakeAnthropic {
  /** Base URL for the SDK's baseURL, e.g. http://127.0.0.1:PORT (no trailing slash, no /v1). */
  url: string;
  /** Every POST /v1/messages with a JSON body, in arrival order (including the ones answered with errors). */
  requests: RecordedRequest[];
  /** Appends turns; each POST /v1/messages consumes the next one. */
  script(...turns: ScriptedTurn[]): void;
  /** Turns scripted but not consumed yet. */
  readonly pendingTurns: number;
  /** Destroys open connections (ending stalled streams) and closes the server. */
  stop(): Promise<void>;
}

/** Why the real API would refuse these headers, or null. */
function headerProblem(
  headers: Record<string, string>,
  options: FakeAnthropicOptions,
): { type: ApiErrorType; message: string } | null {
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1];
  const key = headers['x-api-key'] || bearer;
  if (!key) return { type: 'authentication_error', message: 'x-api-key header is required' };
  if (options.apiKey !== undefined && key !== options.apiKey)
    return { type: 'authentication_error', message: 'invalid x-api-key' };
  if (
    options.requireBrowserAccessHeader !== false &&
    headers.origin &&
    headers['anthropic-dangerous-direct-browser-access'] !== 'true'
  ) {
    return {
      type: 'authentication_error',
      message: "CORS requests must set 'anthropic-dangerous-direct-browser-access' header",
    };
  }
  if (!headers['anthropic-version'])
    return { type: 'invalid_request_error', message: 'anthropic-version: header is required' };
  return null;
}

// Toolsets (browser, computer) carry a type but no name.
const toolName = (tool: Anthropic.ToolUnion): string =>
  'name' in tool && typeof tool.name === 'string' ? tool.name : String(tool.type);

/** Starts the fake on 127.0.0.1 on a free port. */
export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedTurn[] = [];
  let requestSeq = 0;
  let toolSeq = 0;
  const cache = new PromptCache(options.now);
  const codeRuns = createCodeRuns();
  const windowOf = (model: string): number => {
    const listed = servedModel(options.models ?? DEFAULT_FAKE_MODELS, model)?.max_input_tokens;
    return typeof listed === 'number' ? listed : (options.contextWindowTokens ?? 200_000);
  };

  async function postMessages(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    requestId: string,
  ): Promise<void> {
    const raw = await readBody(req);
    // https://platform.claude.com/docs/en/api/overview#request-size-limits: over 32 MB is refused before anything else.
    if (Buffer.byteLength(raw) > MAX_REQUEST_BYTES)
      return sendError(res, requestId, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.');
    const parsed = parseJson(raw);
    if (typeof parsed !== 'object' || parsed === null)
      return sendError(res, requestId, 'invalid_request_error', 'The request body is not valid JSON.');
    const headers = flatHeaders(req);
    // The fake hands the body over as the SDK's type; validateRequests checks the parts that matter.
    const body = parsed as MessagesRequestBody;
    const tools = body.tools ?? [];
    const recorded: RecordedRequest = {
      index: requests.length,
      path,
      headers,
      body,
      stream: body.stream === true,
      toolNames: tools.map(toolName),
      deferredToolNames: tools.filter((tool) => 'defer_loading' in tool && tool.defer_loading === true).map(toolName),
    };
    requests.push(recorded);
    const refused = headerProblem(headers, options);
    if (refused) return sendError(res, requestId, refused.type, refused.message);
    const betaRefusal = unsupportedBetaProblem(headers, options.supportedBetas);
    if (betaRefusal) return sendError(res, requestId, 'invalid_request_error', betaRefusal);
    const seen = afterLastCompaction(parsed as Record<string, unknown>);
    const blocks = promptBlocks(seen);
    const inputTokens = blocks.reduce((sum, b) => sum + b.tokens, 0);
    recorded.inputTokens = inputTokens;
    if (options.validateRequests !== false) {
      const shape = invalidRequestReason(parsed);
      if (shape) return sendError(res, requestId, 'invalid_request_error', shape);
      // A well-formed request to a model the API does not serve: 404 not_found_error "model: <id>"
      // (https://platform.claude.com/docs/en/api/errors); the fake serves the models it lists and their aliases.
      if (!servedModel(options.models ?? DEFAULT_FAKE_MODELS, body.model))
        return sendError(res, requestId, 'not_found_error', `model: ${String(body.model)}`);
    }
    const invalid =
      options.validateRequests === false
        ? null
        : (compactionProblem(parsed as Record<string, unknown>, headers) ??
          mediaProblem(parsed as Record<string, unknown>) ??
          contractViolation(parsed as Record<string, unknown>, {
            headers,
            contextWindowTokens: windowOf(body.model),
            inputTokens,
          }) ??
          programmaticProblem(parsed as Record<string, unknown>, headers, codeRuns.runs, options.codeExecutionTypes));
    if (invalid) return sendError(res, requestId, 'invalid_request_error', invalid);
    const next = queue.shift();
    if (next === undefined) {
      const message = `fake-anthropic: the script ran out: POST /v1/messages #${recorded.index} has no scripted turn (script more turns with fake.script(...))`;
      return sendError(res, requestId, 'api_error', message);
    }
    const turn = typeof next === 'function' ? await next(recorded) : next;
    if ('error' in turn) {
      const { status, type = errorType(status), message, retryAfterSeconds } = turn.error;
      const extra: Record<string, string> =
        retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) };
      return sendJson(res, status, errorBody(type, message, requestId), { ...extra, 'request-id': requestId });
    }
    const trigger = compactTrigger(parsed as Record<string, unknown>);
    const compaction = trigger !== undefined && inputTokens >= trigger ? fakeCompaction(inputTokens) : undefined;
    recorded.isCompacted = compaction !== undefined;
    // After compacting, the model answers from the summary alone (with the tools and system prompt).
    const answered = compaction
      ? promptBlocks({
          ...seen,
          messages: [
            {
              role: 'assistant',
              content: [
                { type: 'compaction', content: compaction.content, encrypted_content: compaction.encrypted_content },
              ],
            },
          ],
        })
      : blocks;
    recorded.usage = cache.account(body.model, answered);
    const codeRun = 'code' in turn ? codeRuns.runFor(turn.code, body) : undefined;
    const containerId = codeRun?.containerId ?? codeRuns.knownContainer(body);
    const expiresAt = new Date((options.now ?? Date.now)() + CONTAINER_IDLE_MS).toISOString();
    const ctx: AnswerContext = {
      ...(compaction ? { compaction } : {}),
      ...(codeRun ? { codeRun } : {}),
      ...(containerId ? { container: { id: containerId, expires_at: expiresAt } } : {}),
      messageId: `msg_fake_${String(recorded.index).padStart(4, '0')}`,
      model: body.model,
      cache: recorded.usage,
      nextToolId: () => `toolu_fake_${String(++toolSeq).padStart(4, '0')}`,
      tools: body.tools ?? [],
    };
    await (recorded.stream ? answerStream(res, turn, ctx, requestId) : answerJson(res, turn, ctx, requestId));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = `req_fake_${String(++requestSeq).padStart(4, '0')}`;
    for (const [name, value] of Object.entries(corsHeaders(req))) res.setHeader(name, value);
    res.setHeader('request-id', requestId);
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/\/+$/, '');
    if (req.method === 'POST' && path === '/v1/messages')
      return postMessages(req, res, `${url.pathname}${url.search}`, requestId);
    req.resume();
    const refused = headerProblem(flatHeaders(req), options);
    if (refused && path.startsWith('/v1/')) return sendError(res, requestId, refused.type, refused.message);
    if (req.method === 'GET' && path.startsWith('/v1/models')) {
      const page = modelsPage(options.models, path, url.searchParams, options.contextWindowTokens);
      return page
        ? sendJson(res, 200, page)
        : sendError(res, requestId, 'not_found_error', `model: ${path.slice('/v1/models/'.length)}`);
    }
    sendError(res, requestId, 'not_found_error', `Not found: ${req.method ?? ''} ${url.pathname}`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      sendError(
        res,
        'req_fake_error',
        'api_error',
        `fake-anthropic failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  });
  const { port, close: closeListener } = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...turns) => void queue.push(...turns),
    get pendingTurns() {
      return queue.length;
    },
    stop: async () => {
      await closeListener();
    },
  };
}
