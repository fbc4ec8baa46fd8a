import Anthropic, {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  PermissionDeniedError,
  RateLimitError,
} from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming, MessageParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { ContentBlock } from '../domain/message';
import { logFailure, silentLogger, type Logger } from '../domain/logger';
import { sentImageType } from '../domain/media-probe';
import { ModelError } from '../domain/model-errors';
import { withCacheBreakpoints } from './cache-breakpoints';
import { withTrailingContext } from './trailing-context';
import { compactionOf, toBlocks, toUsage } from './anthropic-answer';
import type { ModelPort, ModelRequest } from './model-port';
import { cutWhenIdle, STREAM_IDLE_MS, watchRetries } from './request-middleware';

export interface AnthropicModelOptions {
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly fetch: typeof fetch;
  /** Retries for 429, 5xx and 529; the SDK waits as retry-after says, else backs off. */
  readonly maxRetries?: number;
  /** Where a failure the model goes on past is reported (the context window lookup); silent when omitted. */
  readonly logger?: Logger;
  /** How long an answer may send nothing at all before it counts as cut (default STREAM_IDLE_MS). */
  readonly idleMs?: number;
}

const windows = new Map<string, Promise<number | undefined>>();

/** The Messages API through the official SDK, from the browser. */
export function createAnthropicModel(options: AnthropicModelOptions): ModelPort {
  if (!options.apiKey) throw new ModelError('no-key');
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    fetch: options.fetch,
    maxRetries: options.maxRetries ?? 2,
    dangerouslyAllowBrowser: true, // The key is the person's own, kept in their vault; there is no backend.
  });
  return {
    async stream(request, onSnapshot, signal, onRetry) {
      const requestOptions = {
        signal,
        middleware: [
          cutWhenIdle(options.idleMs ?? STREAM_IDLE_MS),
          ...(onRetry ? [watchRetries(onRetry, options.maxRetries ?? 2)] : []),
        ],
      };
      try {
        const onEvent = (_event: unknown, snapshot: { content: readonly unknown[]; usage: Anthropic.Usage }) => {
          const blocks = toBlocks(snapshot.content as readonly Anthropic.ContentBlock[]);
          onSnapshot(blocks, toUsage(snapshot.usage, blocks));
        };
        let final: {
          content: readonly { type: string }[];
          usage: Anthropic.Usage;
          stop_reason: string | null;
          container?: Anthropic.Container | null;
        };
        if (usesCompaction(request)) {
          const stream = client.beta.messages.stream(toCompactionParams(request), requestOptions);
          stream.on('streamEvent', onEvent);
          final = await stream.finalMessage();
        } else {
          const stream = client.messages.stream(toParams(request), requestOptions);
          stream.on('streamEvent', onEvent);
          final = await stream.finalMessage();
        }
        const compaction = compactionOf(final.content);
        const container = final.container;
        return {
          ...(compaction ? { compaction } : {}),
          ...(container ? { container: { id: container.id, expiresAt: container.expires_at } } : {}),
          blocks: toBlocks(final.content as readonly Anthropic.ContentBlock[]),
          stopReason: final.stop_reason,
          usage: toUsage(final.usage),
        };
      } catch (error) {
        throw toModelError(error, signal);
      }
    },
    contextWindow(model) {
      // GET /v1/models/{id} gives max_input_tokens; asked once per endpoint and model, and an endpoint without it
      // (or a failure) leaves the caller's default.
      const key = `${options.baseUrl}\n${model}`;
      let known = windows.get(key);
      if (!known) {
        known = client.models
          .retrieve(model, {}, { maxRetries: 0 })
          .then((info) => (typeof info.max_input_tokens === 'number' ? info.max_input_tokens : undefined))
          .catch(
            logFailure(
              options.logger ?? silentLogger,
              "Reading the model's context window failed; the default is used",
              {
                model,
              },
            ),
          );
        windows.set(key, known);
      }
      return known;
    },
    async listModels() {
      try {
        const page = await client.models.list({ limit: 100 });
        return page.data.map((m) => m.id);
      } catch (error) {
        throw toModelError(error, new AbortController().signal);
      }
    },
  };
}

type ImageBlock = Extract<ContentBlock, { type: 'image' }>;
const withSentType = (image: ImageBlock): ImageBlock => {
  if (image.source.type !== 'base64') return image;
  const type = sentImageType(image.source.media_type, image.source.data);
  return type === image.source.media_type ? image : { ...image, source: { ...image.source, media_type: type } };
};

/**
 * Every base64 image of the history with the type its bytes show: one stored with a wrong type (a tool result from
 * before images were checked, a server's declared type) would make the API refuse each turn of the thread. The same
 * objects when nothing changes.
 */
function withImageTypesFromBytes(messages: ModelRequest['messages']): ModelRequest['messages'] {
  return messages.map((message) => {
    let isChanged = false;
    const content = message.content.map((block) => {
      let next = block;
      if (block.type === 'image') next = withSentType(block);
      else if (block.type === 'tool_result') {
        const inner = block.content.map((part) => (part.type === 'image' ? withSentType(part) : part));
        if (inner.some((part, i) => part !== block.content[i])) next = { ...block, content: inner };
      }
      if (next !== block) isChanged = true;
      return next;
    });
    return isChanged ? { ...message, content } : message;
  });
}

/** The request body the adapter sends for `request` (exported so the in-memory model port checks the same body). */
export function toParams(request: ModelRequest): MessageCreateParamsStreaming {
  const params: MessageCreateParamsStreaming = {
    model: request.model,
    max_tokens: request.maxTokens,
    stream: true,
    ...(request.system ? { system: [{ type: 'text' as const, text: request.system }] } : {}),
    messages: withImageTypesFromBytes(request.messages) as unknown as MessageParam[],
    ...(request.tools.length > 0 ? { tools: request.tools as unknown as ToolUnion[] } : {}),
    ...(request.thinkingBudget ? { thinking: { type: 'enabled', budget_tokens: request.thinkingBudget } } : {}),
    // Programmatic tool calling: the container the turn's code runs in, sent with every later call of the turn.
    ...(request.container ? { container: request.container } : {}),
  };
  // The trailing context comes after the breakpoints: no cached prefix holds it, so a change of it empties none.
  return withTrailingContext(
    withCacheBreakpoints(params),
    request.trailingContext,
    request.thinkingBudget !== undefined,
  );
}

// Server-side compaction (beta): https://platform.claude.com/docs/en/build-with-claude/compaction. The request asks
// for it with the `compact_20260112` edit and the `compact-2026-01-12` beta; the answer's compaction block is sent
// back first in later requests, which therefore carry the beta too.
const COMPACT_BETA = 'compact-2026-01-12';

const usesCompaction = (request: ModelRequest): boolean =>
  request.serverCompaction !== undefined || request.compactionBlock !== undefined;

function toCompactionParams(request: ModelRequest): Anthropic.Beta.Messages.MessageCreateParamsStreaming {
  const base = toParams(request) as unknown as Anthropic.Beta.Messages.MessageCreateParamsStreaming;
  const messages = [...base.messages];
  const block = request.compactionBlock;
  if (block) {
    const first = messages[0];
    if (first?.role === 'assistant' && Array.isArray(first.content))
      messages[0] = { ...first, content: [block, ...first.content] };
    else messages.unshift({ role: 'assistant', content: [block] });
  }
  return {
    ...base,
    messages,
    betas: [COMPACT_BETA],
    ...(request.serverCompaction
      ? {
          context_management: {
            edits: [
              {
                type: 'compact_20260112',
                trigger: { type: 'input_tokens', value: request.serverCompaction.triggerTokens },
              },
            ],
          },
        }
      : {}),
  };
}

function toModelError(error: unknown, signal: AbortSignal): unknown {
  if (error instanceof ModelError) return error;
  if (error instanceof APIUserAbortError || signal.aborted) return error;
  if (error instanceof AuthenticationError) return new ModelError('auth', undefined, 401);
  if (error instanceof PermissionDeniedError) return new ModelError('permission', undefined, 403);
  if (error instanceof RateLimitError) return new ModelError('rate-limit', undefined, 429);
  if (error instanceof APIConnectionError) return new ModelError('network');
  if (error instanceof APIError) {
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number') {
      if (status === 529) return new ModelError('overloaded', undefined, 529);
      if (status >= 500) return new ModelError('server', `HTTP ${status}`, status);
      const body = (error as { error?: unknown }).error;
      // The Messages API answers an unknown model with a 404 of type not_found_error ("model: …").
      if (status === 404 && apiErrorType(body) === 'not_found_error')
        return new ModelError('model-not-found', apiMessage(body, status), status);
      return new ModelError('bad-request', apiMessage((error as { error?: unknown }).error, status), status);
    }
    // An `event: error` frame mid-stream has a type but no status; the part already streamed is kept by the caller.
    const type = (error as { type?: unknown }).type;
    if (type === 'overloaded_error') return new ModelError('overloaded', undefined, 529);
    if (type === 'rate_limit_error') return new ModelError('rate-limit', undefined, 429);
    if (type === 'api_error') return new ModelError('server', 'during the answer');
    const message = (error as { error?: { error?: { message?: unknown } } }).error?.error?.message;
    if (typeof message === 'string') return new ModelError('stream-cut', message.slice(0, 200));
  }
  return new ModelError('stream-cut', error instanceof Error ? error.message.slice(0, 200) : undefined);
}

function apiErrorType(body: unknown): unknown {
  return (body as { error?: { type?: unknown } } | undefined)?.error?.type;
}

function apiMessage(body: unknown, status: number): string {
  const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  return typeof message === 'string' ? message.slice(0, 300) : `HTTP ${status}`;
}
