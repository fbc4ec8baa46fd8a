import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../../../src/agent/anthropic-model';
import type { ModelRequest } from '../../../src/agent/model-port';
import { ModelError } from '../../../src/domain/model-errors';
import { testConnection } from '../../../src/stores/connection-test';
import { startFakeAnthropic, type FakeAnthropic } from '../../fakes/fake-anthropic';
import { createMemoryStorage } from '../../fakes/memory-storage';
import { samplePng } from '../../fixtures/sample-files';

let api: FakeAnthropic;
beforeEach(async () => {
  api = await startFakeAnthropic();
});
afterEach(async () => {
  await api.stop();
});

const request: ModelRequest = {
  model: 'claude-sonnet-5',
  maxTokens: 512,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [],
};
const model = (maxRetries = 0) =>
  createAnthropicModel({
    apiKey: 'sk-ant-test',
    baseUrl: api.url,
    fetch: (input, init) => fetch(input, init),
    maxRetries,
  });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('the Anthropic SDK adapter against the fake Messages API', () => {
  it('sends an image stored with a wrong type (in a tool result of the history) with the type its bytes show', async () => {
    api.script({ text: 'A grey square.' });
    const png = samplePng(8, 8).toString('base64');
    const history: ModelRequest = {
      ...request,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Draw' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'tu-1', name: 'draw', input: {} }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'tu-1',
              content: [{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: png } }],
            },
          ],
        },
      ],
    };
    const result = await model().stream(history, () => {}, new AbortController().signal);
    expect(result.blocks).toEqual([{ type: 'text', text: 'A grey square.' }]);
    expect(JSON.stringify(api.requests.at(-1)!.body.messages)).toContain('"media_type":"image/png"');
  });

  it('tells onRetry when the API refuses an attempt the SDK retries (with the wait it asked for), then clears it', async () => {
    api.script({ error: { status: 429, retryAfterSeconds: 1 } }, { error: { status: 529 } }, { text: 'Made it.' });
    const told: unknown[] = [];
    const result = await model(2).stream(
      request,
      () => {},
      new AbortController().signal,
      (retry) => told.push(retry),
    );
    expect(result.blocks).toEqual([{ type: 'text', text: 'Made it.' }]);
    expect(told).toEqual([{ status: 429, seconds: 1 }, undefined, { status: 529 }, undefined]);
  });

  it('tells onRetry nothing about the last refusal, which is not retried: the error ends the call', async () => {
    api.script({ error: { status: 529 } }, { error: { status: 529 } });
    const told: unknown[] = [];
    const error = await failure(
      model(1).stream(
        request,
        () => {},
        new AbortController().signal,
        (r) => told.push(r),
      ),
    );
    expect(error).toBeInstanceOf(ModelError);
    expect(told).toEqual([{ status: 529 }, undefined]);
  });

  it('streams snapshots and returns the blocks, stop reason and usage with cache figures', async () => {
    api.script({
      text: ['Hello ', 'there.'],
      usage: { input_tokens: 50, output_tokens: 4, cache_read_input_tokens: 40, cache_creation_input_tokens: 8 },
    });
    const snapshots: string[] = [];
    const result = await model().stream(
      request,
      (blocks) => snapshots.push(JSON.stringify(blocks)),
      new AbortController().signal,
    );
    expect(result).toEqual({
      blocks: [{ type: 'text', text: 'Hello there.' }],
      stopReason: 'end_turn',
      usage: { input: 50, output: 4, cacheRead: 40, cacheWrite: 8 },
    });
    expect(snapshots.length).toBeGreaterThan(1);
  });

  it('retries a 429 after the time retry-after gives, then succeeds', async () => {
    api.script({ error: { status: 429, retryAfterSeconds: 1 } }, { text: 'After waiting.' });
    const started = Date.now();
    const result = await model(1).stream(request, () => undefined, new AbortController().signal);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(result.blocks).toEqual([{ type: 'text', text: 'After waiting.' }]);
  });

  it.each([
    [401, 'auth', 'The API key was refused (401).'],
    [403, 'permission', 'may not use this model'],
    [429, 'rate-limit', 'rate-limiting'],
    [500, 'server', 'internal error'],
    [529, 'overloaded', 'overloaded'],
  ] as const)('turns HTTP %i into a "%s" ModelError a person can read', async (status, reason, text) => {
    api.script({ error: { status } });
    const error = await failure(model().stream(request, () => undefined, new AbortController().signal));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ reason });
    expect((error as Error).message).toContain(text);
    expect((error as Error).message).not.toContain('sk-ant-test');
  });

  it('a model the API does not know (404 not_found_error) says so and where to choose another', async () => {
    // The contract fake answers an unlisted model itself, as the API does.
    const error = await failure(
      model().stream({ ...request, model: 'claude-nonexistent-9' }, () => undefined, new AbortController().signal),
    );
    expect(error).toMatchObject({ reason: 'model-not-found', status: 404 });
    expect((error as Error).message).toBe(
      'The API does not know this model (404 not found): choose another model in Settings or in Thread settings. (model: claude-nonexistent-9)',
    );
  });

  it('reports a stream cut mid-message instead of hanging', async () => {
    api.script({ text: ['one ', 'two ', 'three ', 'four'], cutAfterChunks: 2 });
    const error = await failure(model().stream(request, () => undefined, new AbortController().signal));
    expect(error).toMatchObject({ reason: 'stream-cut' });
  });

  it('a stream that stalls (the connection open, nothing sent) is cut after the idle time, with what arrived', async () => {
    api.script({ text: ['one ', 'two ', 'three'], stallAfterChunks: 2 });
    const seen: string[] = [];
    const stalling = createAnthropicModel({
      apiKey: 'sk-ant-test',
      baseUrl: api.url,
      fetch: (input, init) => fetch(input, init),
      maxRetries: 0,
      idleMs: 2000, // The product's three minutes, shortened: the test waits for the failure, not for a time.
    });
    const error = await failure(
      stalling.stream(
        request,
        (blocks) => seen.push(blocks.map((b) => (b.type === 'text' ? b.text : '')).join('')),
        new AbortController().signal,
      ),
    );
    expect(error).toMatchObject({ reason: 'stream-cut' });
    expect((error as Error).message).toBe(
      'The answer stopped arriving before it was complete; what arrived is kept. (nothing arrived for 2 s)',
    );
    expect(seen.at(-1)).toBe('one two ');
  });

  it('a slow stream that keeps sending is never cut, however long it takes in all', async () => {
    // Six deltas 400 ms apart (2.4 s in all) against an idle time of 2 s: each arrival starts the wait again.
    api.script({ text: ['a ', 'b ', 'c ', 'd ', 'e ', 'f'], delayMs: 400 });
    const slow = createAnthropicModel({
      apiKey: 'sk-ant-test',
      baseUrl: api.url,
      fetch: (input, init) => fetch(input, init),
      maxRetries: 0,
      idleMs: 2000,
    });
    const result = await slow.stream(request, () => undefined, new AbortController().signal);
    expect(result.blocks).toEqual([{ type: 'text', text: 'a b c d e f' }]);
  });

  it('keeps truncated tool input as the SDK parses it (an object the registry then validates)', async () => {
    api.script({ invalidToolJson: { name: 'mcp__s__t' } });
    const result = await model().stream(request, () => undefined, new AbortController().signal);
    expect(result.blocks[0]).toMatchObject({ type: 'tool_use', name: 'mcp__s__t', input: {} });
  });

  it('Test at a base URL whose path has no model list says to check the path, not the model', async () => {
    const storage = createMemoryStorage();
    const profileId = (await storage.profiles.ensureActive()).id;
    const baseUrl = `${api.url}/wrong`;
    const create = (apiKey: string, url: string) =>
      createAnthropicModel({ apiKey, baseUrl: url, fetch: (input, init) => fetch(input, init), maxRetries: 0 });
    expect(
      await testConnection({ storage, profileId, defaultBaseUrl: api.url }, { apiKey: 'sk-ant-test', baseUrl }, create),
    ).toEqual({
      ok: false,
      message: `${baseUrl} answered, but has no model list there (404 not found): check the base URL's path.`,
    });
  });

  it('lists the models the API offers', async () => {
    expect(await model().listModels()).toEqual(expect.arrayContaining(['claude-sonnet-5']));
  });
});
