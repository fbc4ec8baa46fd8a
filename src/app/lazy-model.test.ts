import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../agent/model-port';
import { ModelError } from '../domain/model-errors';
import { startFakeAnthropic, type FakeAnthropic } from '../../test/fakes/fake-anthropic';
import { createLazyAnthropicModel } from './lazy-model';

let api: FakeAnthropic;
beforeEach(async () => {
  api = await startFakeAnthropic();
});
afterEach(async () => {
  await api.stop();
});

const request: ModelRequest = {
  model: 'claude-sonnet-5',
  maxTokens: 256,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [],
};
const lazyModel = (apiKey = 'sk-ant-lazy') =>
  createLazyAnthropicModel({ apiKey, baseUrl: api.url, fetch: (input, init) => fetch(input, init), maxRetries: 0 });

describe('the model whose SDK loads on the first call', () => {
  it('without a key, says so at once, as the eager model does', () => {
    expect(() => lazyModel('')).toThrow(ModelError);
    expect(() => lazyModel('')).toThrow('No API key is set');
  });

  it('streams an answer and lists the models through the SDK it loaded', async () => {
    const model = lazyModel();
    api.script({ text: ['Loaded ', 'on demand.'] });
    const snapshots: unknown[] = [];
    const result = await model.stream(request, (blocks) => snapshots.push(blocks), new AbortController().signal);
    expect(result.blocks).toEqual([{ type: 'text', text: 'Loaded on demand.' }]);
    expect(snapshots.length).toBeGreaterThan(0);
    expect(await model.listModels()).toContain('claude-haiku-4-5-20251001');
  });

  it('reports API failures as the eager model does', async () => {
    api.script({ error: { status: 401 } });
    const error = await lazyModel()
      .stream(request, () => undefined, new AbortController().signal)
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).reason).toBe('auth');
  });
});
