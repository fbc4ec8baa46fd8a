// A server's sampling request (issue #20, item 4) through the real chat store, registry and turn runner, against
// server-everything on 127.0.0.1 and the contract fake of the Messages API: shown for approval, run on the person's
// key with max tokens capped, shown again before it goes back, counted in the thread's trace and usage.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_APP_CONFIG } from '../../src/domain/app-config';
import { countUsage } from '../../src/domain/usage-limits';
import type { Registry } from '../../src/mcp/registry';
import type { PendingSampling } from '../../src/stores/sampling-requests';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import type { TestStorage } from '../fakes/test-storage';
import { newThreadWith, sendSamplingTurn, startSamplingRig, until, type SamplingRig } from './sampling-rig';

let rig: SamplingRig;
let api: FakeAnthropic;
let opened: TestStorage;
let registry: Registry;
let samplings: SamplingRig['samplings'];

beforeAll(async () => {
  rig = await startSamplingRig([{ id: 'everything', name: 'Everything' }]);
  ({ api, opened, registry, samplings } = rig);
});

afterAll(async () => {
  await rig?.close();
});

afterEach(() => {
  expect(api.pendingTurns).toBe(0);
});

const pendingIn = (stage: PendingSampling['stage']['kind']) =>
  until(samplings.store, (s) => s.samplings.find((p) => p.stage.kind === stage));

/** Starts a turn whose model calls the sampling tool (approved once), and resolves once the request is shown. */
async function startSamplingTurn(input: Record<string, unknown>) {
  const threadId = await newThreadWith(rig, ['everything']);
  const { sent } = await sendSamplingTurn(rig, 'everything', input);
  const pending = await pendingIn('review');
  return { threadId, sent, pending };
}

const toolResultText = () =>
  JSON.stringify(
    api.requests
      .at(-1)!
      .body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((b) => b.type === 'tool_result')
      .at(-1),
  );

describe('sampling requests from a server', () => {
  it('runs only after approval, with the person’s edits and max tokens capped, and returns the approved answer', async () => {
    const { threadId, sent, pending } = await startSamplingTurn({ prompt: 'a haiku about tea', maxTokens: 1_000_000 });
    expect(pending.serverName).toBe('Everything');
    expect(pending.threadId).toBe(threadId);
    expect(pending.request.systemPrompt).toBe('You are a helpful test server.');
    expect(pending.request.messages[0]!.content[0]).toEqual({
      type: 'text',
      text: 'Resource trigger-sampling-request context: a haiku about tea',
    });
    expect(pending.request.maxTokens).toBe(1_000_000);
    expect(pending.plan).toMatchObject({ model: EMPTY_APP_CONFIG.defaults.model, maxTokens: 8192 });
    const callsBefore = api.requests.length;
    expect(api.requests.length).toBe(callsBefore); // Nothing was sent to the model while the request waited.

    api.script({ text: 'Steam curls upward' }, { text: 'The server got its haiku.' });
    pending.approve({ systemPrompt: 'Answer in five words.', texts: ['a haiku about green tea'] });
    const answered = await pendingIn('result');
    expect(answered.stage).toMatchObject({ kind: 'result', reply: { text: 'Steam curls upward' } });
    const call = api.requests[callsBefore]!;
    expect(call.body.system).toEqual([expect.objectContaining({ type: 'text', text: 'Answer in five words.' })]);
    expect(call.body.max_tokens).toBe(8192);
    expect(call.toolNames).toEqual([]);
    expect(call.body.messages).toEqual([
      { role: 'user', content: [expect.objectContaining({ type: 'text', text: 'a haiku about green tea' })] },
    ]);
    expect(api.requests.length).toBe(callsBefore + 1); // The server has not got the answer: the turn waits on it.

    answered.send();
    await sent;
    expect(toolResultText()).toContain('Steam curls upward');
    expect(toolResultText()).toContain(EMPTY_APP_CONFIG.defaults.model);

    const messages = (await opened.storage.messages.list(threadId)).items;
    const trace = messages.flatMap((m) => m.trace);
    const sampled = trace.find((e) => e.kind === 'model-call' && e.sampledFor);
    expect(sampled).toMatchObject({
      kind: 'model-call',
      sampledFor: { serverId: 'everything', serverName: 'Everything' },
      usage: { input: expect.any(Number) as number, output: expect.any(Number) as number },
    });
    // The server's call counts toward the person's limits like the turn's own calls.
    const records = await opened.storage.usage.since((await opened.storage.profiles.ensureActive()).id, 0);
    expect(countUsage(records, Date.now()).callsLastHour).toBe(3);
  });

  it('sends nothing to the model when the person rejects the request, and the server is told', async () => {
    const { sent, pending } = await startSamplingTurn({ prompt: 'secrets' });
    const callsBefore = api.requests.length;
    api.script({ text: 'The server was refused.' });
    pending.reject();
    await sent;
    expect(api.requests.length).toBe(callsBefore + 1); // Only the turn's next call, no sampling call.
    expect(toolResultText()).toContain('The person rejected the sampling request.');
    expect(toolResultText()).not.toContain('MCP error -1: MCP error -1'); // Told once, with the spec's code.
    expect(samplings.store.getState().samplings).toEqual([]);
  });

  it('keeps the answer from the server when the person rejects it after the call', async () => {
    const { sent, pending } = await startSamplingTurn({ prompt: 'a limerick' });
    api.script({ text: 'There once was a server' }, { text: 'The answer was withheld.' });
    pending.approve({ texts: ['a limerick'] });
    const answered = await pendingIn('result');
    answered.reject();
    await sent;
    expect(toolResultText()).toContain('The person rejected the answer.');
    expect(toolResultText()).not.toContain('There once was a server');
  });

  it("refuses a request while no turn's call of the server runs, saying why in its log and in no thread", async () => {
    const refusedBefore = samplings.store.getState().refused.length;
    const result = await registry.callTool('everything', 'trigger-sampling-request', { prompt: 'outside a turn' });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('no call of this server was running in a thread where it is on');
    expect(samplings.store.getState().refused).toHaveLength(refusedBefore);
    expect(rig.registry.logs('everything').at(-1)?.text).toBe(
      'Refused its request to run the model: no call of this server was running in a thread where it is on, so no one was asked.',
    );
  });
});
