// Shared by the fake Anthropic API's own tests: a fresh fake per test and the real SDK pointed at it.
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic';

export const MODEL = 'claude-sonnet-5';

/** Starts a fake before each test and stops it after; `current()` is the running one. */
export function useFakeAnthropic(): { current: () => FakeAnthropic } {
  let fake: FakeAnthropic | undefined;
  beforeEach(async () => {
    fake = await startFakeAnthropic();
  });
  afterEach(() => fake?.stop());
  return {
    current: () => {
      if (!fake) throw new Error('the fake Anthropic API is not running');
      return fake;
    },
  };
}

/** The official SDK pointed at `baseURL`, without retries unless asked. */
export const sdkClient = (baseURL: string, options: ConstructorParameters<typeof Anthropic>[0] = {}) =>
  new Anthropic({ apiKey: 'test-key', baseURL, maxRetries: 0, timeout: 5_000, ...options });

/** A one-message streaming request. */
export const ask = (client: Anthropic, extra: Partial<Anthropic.MessageStreamParams> = {}) =>
  client.messages.stream({ model: MODEL, max_tokens: 1024, messages: [{ role: 'user', content: 'Hi' }], ...extra });
