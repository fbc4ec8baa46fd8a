// The fake Anthropic API's failures as the real @anthropic-ai/sdk sees them: HTTP errors, retries, cut streams, CORS.
import Anthropic, { type APIError } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { ask, MODEL, sdkClient, useFakeAnthropic } from './fake-anthropic-client';

const fake = useFakeAnthropic().current;
const clientFor = (options: ConstructorParameters<typeof Anthropic>[0] = {}) => sdkClient(fake().url, options);

/** The error a promise rejects with (fails the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('fake Anthropic API: HTTP errors', () => {
  it('401 → AuthenticationError with the real error body and request id', async () => {
    fake().script({ error: { status: 401 } });
    const error = await rejection(ask(clientFor()).finalMessage());
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    const apiError = error as APIError;
    expect(apiError.status).toBe(401);
    expect(apiError.type).toBe('authentication_error');
    expect(apiError.error).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key' },
    });
    expect(apiError.requestID).toMatch(/^req_fake_/);
  });

  it('403 → PermissionDeniedError', async () => {
    fake().script({ error: { status: 403, message: 'no access' } });
    const error = await rejection(
      clientFor().messages.create({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect((error as APIError).apiMessage).toBe('no access');
  });

  it('429 with retry-after: the SDK waits that long, retries, and the next turn answers', async () => {
    fake().script({ error: { status: 429, retryAfterSeconds: 1 } }, { text: 'after the wait' });
    const started = Date.now();
    await expect(ask(clientFor({ maxRetries: 1 })).finalText()).resolves.toBe('after the wait');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(fake().requests.map((request) => request.headers['x-stainless-retry-count'])).toEqual(['0', '1']);
  });

  it('429 without retries → RateLimitError carrying retry-after', async () => {
    fake().script({ error: { status: 429, retryAfterSeconds: 7 } });
    const error = await rejection(ask(clientFor()).finalMessage());
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect((error as APIError).headers?.get('retry-after')).toBe('7');
  });

  it('529 → OverloadedError, an InternalServerError and APIError with status 529', async () => {
    fake().script({ error: { status: 529 } });
    const error = await rejection(ask(clientFor()).finalMessage());
    expect(error).toBeInstanceOf(Anthropic.OverloadedError);
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error).toMatchObject({ name: 'OverloadedError', status: 529, type: 'overloaded_error' });
  });

  it('answers a clear 500 when the script ran out', async () => {
    const error = await rejection(ask(clientFor()).finalMessage());
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect((error as Error).message).toMatch(/script ran out/);
  });

  it('answers 400 to bodies the real API refuses, without consuming a turn', async () => {
    fake().script({ text: 'unused' });
    const messages: Anthropic.MessageParam[] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_a', name: 'search_docs', input: {} }] },
      { role: 'user', content: 'forgot the tool_result' },
    ];
    const error = await rejection(ask(clientFor(), { messages }).finalMessage());
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toMatch(/tool_use` ids were found without `tool_result` blocks.*toolu_a/);
    expect(fake().pendingTurns).toBe(1);
  });
});

describe('fake Anthropic API: broken streams', () => {
  it('a stream cut after n deltas rejects finalMessage instead of hanging', async () => {
    fake().script({ text: ['one ', 'two ', 'three ', 'four'], cutAfterChunks: 2 });
    const stream = ask(clientFor());
    const deltas: string[] = [];
    stream.on('text', (delta) => deltas.push(delta));
    const error = await rejection(stream.finalMessage());
    expect(error).toBeInstanceOf(Anthropic.AnthropicError);
    expect(deltas).toEqual(['one ', 'two ']);
  });

  it('a stalled stream stays open until the client aborts', async () => {
    fake().script({ text: ['one ', 'two'], stallAfterChunks: 1 });
    const stream = ask(clientFor());
    const first = new Promise<string>((resolve) => stream.once('text', resolve));
    await expect(first).resolves.toBe('one ');
    stream.abort();
    await expect(stream.finalMessage()).rejects.toBeInstanceOf(Anthropic.APIUserAbortError);
  });

  it('an error event mid-stream → APIError with the error type and no status', async () => {
    fake().script({ text: ['partial ', 'answer'], midStreamError: { afterChunks: 1, type: 'overloaded_error' } });
    const error = await rejection(ask(clientFor()).finalMessage());
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error).toMatchObject({ status: undefined, type: 'overloaded_error' });
  });

  it('truncated tool JSON: the SDK silently drops the unterminated string and gives input {}', async () => {
    fake().script({ invalidToolJson: { name: 'search_docs', id: 'toolu_t' }, stopReason: 'max_tokens' });
    const message = await ask(clientFor()).finalMessage();
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.content).toEqual([{ type: 'tool_use', id: 'toolu_t', name: 'search_docs', input: {} }]);
  });

  it('non-JSON tool input makes the SDK stream fail', async () => {
    fake().script({ invalidToolJson: { name: 'search_docs', partialJson: '{"query": abc}' } });
    const error = await rejection(ask(clientFor()).finalMessage());
    expect(error).toBeInstanceOf(Anthropic.AnthropicError);
    expect((error as Error).message).toMatch(/JSON/);
  });
});

describe('fake Anthropic API: CORS for the browser', () => {
  it('answers the preflight with 204 and the headers the SDK sends', async () => {
    const requested =
      'authorization, x-api-key, anthropic-version, anthropic-beta, content-type, anthropic-dangerous-direct-browser-access, x-stainless-os, x-stainless-future-thing';
    const response = await fetch(`${fake().url}/v1/messages`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': requested,
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = response.headers.get('access-control-allow-headers')?.split(', ') ?? [];
    expect(allowed).toEqual(expect.arrayContaining(requested.split(', ')));
    expect(response.headers.get('access-control-expose-headers')).toMatch(/request-id.*retry-after/);
  });

  it('refuses a browser request without anthropic-dangerous-direct-browser-access, like the real API', async () => {
    fake().script({ text: 'from the page' });
    const browserLike = (extra: Record<string, string>) =>
      clientFor({ defaultHeaders: { origin: 'http://127.0.0.1:5173', ...extra } });
    const error = await rejection(ask(browserLike({})).finalMessage());
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((error as Error).message).toMatch(/anthropic-dangerous-direct-browser-access/);
    const allowed = browserLike({ 'anthropic-dangerous-direct-browser-access': 'true' });
    await expect(ask(allowed).finalText()).resolves.toBe('from the page');
  });
});
