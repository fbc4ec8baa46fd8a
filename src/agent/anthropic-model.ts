import Anthropic, {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  PermissionDeniedError,
  RateLimitError,
} from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ContentBlock } from '../domain/message';
import { ModelError } from '../domain/model-errors';
import type { Usage } from '../domain/trace';
import type { ModelPort, ModelRequest } from './model-port';

export interface AnthropicModelOptions {
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly fetch: typeof fetch;
  /** Retries for 429, 5xx and 529; the SDK waits as retry-after says, else backs off. */
  readonly maxRetries?: number;
}

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
    async stream(request, onSnapshot, signal) {
      try {
        const stream = client.messages.stream(toParams(request), { signal });
        stream.on('streamEvent', (_event, snapshot) => {
          const blocks = toBlocks(snapshot.content);
          onSnapshot(blocks, toUsage(snapshot.usage, blocks));
        });
        const final = await stream.finalMessage();
        return { blocks: toBlocks(final.content), stopReason: final.stop_reason, usage: toUsage(final.usage) };
      } catch (error) {
        throw toModelError(error, signal);
      }
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

/**
 * The API's token counts. Mid-stream the output count is the one from message_start until message_delta brings the
 * real one: `soFar` (the answer as streamed) gives an estimate (about 4 characters a token) in the meantime.
 */
function toUsage(usage: Anthropic.Usage, soFar?: readonly ContentBlock[]): Usage {
  const estimate = soFar ? Math.ceil(JSON.stringify(soFar).length / 4) : 0;
  return {
    input: usage.input_tokens,
    output: Math.max(usage.output_tokens, soFar && soFar.length > 0 ? estimate : 0),
    cacheRead: usage.cache_read_input_tokens ?? 0,
    cacheWrite: usage.cache_creation_input_tokens ?? 0,
  };
}

function toParams(request: ModelRequest): MessageCreateParamsStreaming {
  return {
    model: request.model,
    max_tokens: request.maxTokens,
    stream: true,
    ...(request.system
      ? { system: [{ type: 'text', text: request.system, cache_control: { type: 'ephemeral' } }] }
      : {}),
    messages: request.messages as unknown as MessageParam[],
    ...(request.tools.length > 0 ? { tools: request.tools as unknown as Tool[] } : {}),
    ...(request.thinkingBudget ? { thinking: { type: 'enabled', budget_tokens: request.thinkingBudget } } : {}),
  };
}

/** Keeps the blocks the app stores; tool input that is not an object (invalid JSON) is kept as it came. */
function toBlocks(content: readonly Anthropic.ContentBlock[]): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const block of content) {
    switch (block.type) {
      case 'text':
        blocks.push({ type: 'text', text: block.text });
        break;
      case 'thinking':
        blocks.push({
          type: 'thinking',
          thinking: block.thinking,
          ...(block.signature ? { signature: block.signature } : {}),
        });
        break;
      case 'redacted_thinking':
        blocks.push({ type: 'redacted_thinking', data: block.data });
        break;
      case 'tool_use':
        blocks.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input });
        break;
      default:
        break;
    }
  }
  return blocks;
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

function apiMessage(body: unknown, status: number): string {
  const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  return typeof message === 'string' ? message.slice(0, 300) : `HTTP ${status}`;
}
