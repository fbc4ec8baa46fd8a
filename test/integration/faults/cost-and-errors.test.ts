// Cost per model call in the trace (issue #17 item 5), and a 400's message with the part of the request it names.
import { describe, expect, it } from 'vitest';
import { AppConfig } from '../../../src/domain/app-config';
import type { ModelCallTrace } from '../../../src/domain/trace';
import { sendMessage } from '../../../src/turns/turn-runner';
import { faultAppsPerTest, type FaultApp } from './turn-harness';

const { app: startApp } = faultAppsPerTest();
// A model the API serves (GET /v1/models lists it) that the app's price table does not know.
const NOVA = { api: { models: [{ id: 'claude-sonnet-5' }, { id: 'claude-nova-9' }] } };
const usage = {
  input_tokens: 1_000,
  output_tokens: 500,
  cache_creation_input_tokens: 2_000,
  cache_read_input_tokens: 10_000,
};

async function callTrace(app: FaultApp, model: string, text = 'Hi'): Promise<ModelCallTrace | undefined> {
  const thread = await app.opened.storage.threads.create(app.profileId, { title: 'Cost', model });
  await sendMessage(app.deps, thread.id, text, {
    askApproval: async () => 'allow-once',
    signal: new AbortController().signal,
  });
  const { items } = await app.opened.storage.messages.list(thread.id);
  return items.at(-1)?.trace.find((e): e is ModelCallTrace => e.kind === 'model-call');
}

describe('cost per model call', () => {
  it('a priced model’s call carries its dollars, from the app-config price table', async () => {
    const app = await startApp();
    app.api.script({ text: 'Hello.', usage });
    expect((await callTrace(app, 'claude-sonnet-5'))?.costUsd).toBe(0.014);
  });

  it('an unknown model’s call shows tokens only and says why', async () => {
    const app = await startApp(NOVA);
    app.api.script({ text: 'Hello.', usage });
    const trace = await callTrace(app, 'claude-nova-9');
    expect(trace?.usage).toEqual({ input: 1_000, output: 500, cacheWrite: 2_000, cacheRead: 10_000 });
    expect(trace?.costUsd).toBeUndefined();
    expect(trace?.unpricedReason).toBe(
      "No price for claude-nova-9 in the app's price table, so only its tokens are shown.",
    );
  });

  it('a deployer’s price table applies to the next call', async () => {
    const app = await startApp(NOVA);
    const prices = { 'claude-nova-9': { input: 1, output: 2, cacheWrite: 1.25, cacheRead: 0.1 } };
    Object.assign(app.deps, { defaults: AppConfig.parse({ defaults: { prices } }).defaults });
    app.api.script({ text: 'Hello.', usage });
    expect((await callTrace(app, 'claude-nova-9'))?.costUsd).toBe(0.0055);
  });
});

describe('a 400 from the API', () => {
  it('shows its message and the block of the request it names, never a generic "failed"', async () => {
    const app = await startApp();
    const thread = await app.opened.storage.threads.create(app.profileId, { title: 'Bad block' });
    await app.opened.storage.messages.append(thread.id, {
      role: 'user',
      blocks: [{ type: 'text', text: 'Look it up' }],
      status: 'complete',
    });
    await app.opened.storage.messages.append(thread.id, {
      role: 'assistant',
      blocks: [{ type: 'text', text: 'The forecast for Lyon is sunny.' }],
      status: 'complete',
    });
    const message = 'messages.1.content.0.text: text content blocks must be non-empty';
    app.api.script({ error: { status: 400, message } });
    await sendMessage(app.deps, thread.id, 'And tomorrow?', {
      askApproval: async () => 'allow-once',
      signal: new AbortController().signal,
    });
    const { items } = await app.opened.storage.messages.list(thread.id);
    const failed = items.at(-1);
    expect(failed?.error).toBe(`The API refused the request. (${message})`);
    expect(failed?.trace[0]).toMatchObject({
      kind: 'model-call',
      error: `The API refused the request. (${message})`,
      offendingPart:
        'a text block (“The forecast for Lyon is sunny.”) in the assistant message 1 (messages.1.content.0)',
    });
  });
});
