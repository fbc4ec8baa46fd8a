// The compaction rules of the contract fake (https://platform.claude.com/docs/en/build-with-claude/compaction): the
// beta and model it needs, its trigger, the compaction block it answers with and the context it leaves; and an
// Anthropic-compatible endpoint without the beta refusing it as the API refuses an unknown beta.
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic';
import { sdkClient, useFakeAnthropic } from './fake-anthropic-client';

type Body = Record<string, unknown>;
const COMPACTING = 'claude-sonnet-4-6';
const BETA = { 'anthropic-beta': 'compact-2026-01-12' };
const fake = useFakeAnthropic().current;

async function post(target: FakeAnthropic, body: Body, headers: Record<string, string> = {}) {
  const response = await fetch(`${target.url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'x-api-key': 'k', 'anthropic-version': '2023-06-01', 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: COMPACTING, max_tokens: 1024, messages: [{ role: 'user', content: 'Hi' }], ...body }),
  });
  return { status: response.status, body: (await response.json()) as Body };
}
const errorOf = (answer: { body: Body }) => (answer.body.error as { message: string }).message;
const compact = (value?: number) => ({
  context_management: {
    edits: [{ type: 'compact_20260112', ...(value ? { trigger: { type: 'input_tokens', value } } : {}) }],
  },
});
// About 60,000 tokens of conversation.
const long = [
  { role: 'user', content: 'a'.repeat(120_000) },
  { role: 'assistant', content: 'noted' },
  { role: 'user', content: 'b'.repeat(120_000) },
];

describe('contract fake: server-side compaction', () => {
  it('refuses compaction on a model the compaction page does not list, and a trigger under 50,000 tokens', async () => {
    const onOther = await post(fake(), { ...compact(), model: 'claude-sonnet-5' }, BETA);
    expect(onOther.status).toBe(400);
    expect(errorOf(onOther)).toBe(
      "context_management.edits.0: 'compact_20260112' is not supported on model 'claude-sonnet-5'",
    );
    const low = await post(fake(), compact(10_000), BETA);
    expect(low.status).toBe(400);
    expect(errorOf(low)).toMatch(/trigger.value: Input should be greater than or equal to 50000/);
  });

  it('refuses a compaction block sent back without the beta header', async () => {
    const messages = [
      { role: 'assistant', content: [{ type: 'compaction', content: 'summary', encrypted_content: 'e' }] },
      { role: 'user', content: 'go on' },
    ];
    const answer = await post(fake(), { messages });
    expect(answer.status).toBe(400);
    expect(errorOf(answer)).toBe(
      "messages.0.content.0: 'compaction' blocks require the 'anthropic-beta: compact-2026-01-12' header",
    );
  });

  it('compacts once the input reaches the trigger: the compaction block comes first, and a later request counts from it', async () => {
    fake().script({ text: 'fine' }, { text: 'short' }, { text: 'again' });
    const under = await post(fake(), { ...compact(100_000), messages: long }, BETA);
    expect(under.status).toBe(200);
    expect((under.body.content as Body[]).map((b) => b.type)).toEqual(['text']);

    const over = await post(fake(), { ...compact(50_000), messages: long }, BETA);
    expect(over.status).toBe(200);
    const content = over.body.content as Body[];
    expect(content.map((b) => b.type)).toEqual(['compaction', 'text']);
    expect(fake().requests[1]?.isCompacted).toBe(true);
    // After compacting, the answer reads the summary, not the 60,000 tokens.
    expect((over.body.usage as { input_tokens: number }).input_tokens).toBeLessThan(1_000);

    // Sent back with the whole history before it, only the block and what follows count.
    const next = [...long, { role: 'assistant', content }, { role: 'user', content: 'and now?' }];
    const later = await post(fake(), { messages: next }, BETA);
    expect(later.status).toBe(200);
    expect(fake().requests[2]?.inputTokens).toBeLessThan(1_000);
  });

  it('streams the compaction block so the official SDK reassembles it', async () => {
    fake().script({ text: 'answer' });
    const client = sdkClient(fake().url);
    const stream = client.beta.messages.stream({
      model: COMPACTING,
      max_tokens: 1024,
      messages: long as never,
      betas: ['compact-2026-01-12'],
      context_management: { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 50_000 } }] },
    });
    const final = await stream.finalMessage();
    expect(final.content[0]?.type).toBe('compaction');
    expect((final.content[0] as { encrypted_content: string }).encrypted_content).toMatch(/^fake-encrypted-\d+$/);
    expect((final.content[0] as { content: string }).content).toMatch(/^Summary of the conversation so far/);
    expect(final.content[1]).toMatchObject({ type: 'text', text: 'answer' });
    // The summary step's tokens come in usage.iterations only, not in the top-level counts (BetaIterationsUsage).
    const [step] = final.usage.iterations ?? [];
    expect(step?.type).toBe('compaction');
    expect(step!.output_tokens).toBeGreaterThan(0);
    expect(step!.input_tokens).toBe(fake().requests.at(-1)!.inputTokens);
    expect(final.usage.input_tokens).toBeLessThan(step!.input_tokens);
  });

  it('an endpoint without the beta refuses it the way the API refuses an unknown beta value', async () => {
    const plain = await startFakeAnthropic({ supportedBetas: [] });
    try {
      const answer = await post(plain, compact(), BETA);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(errorOf(answer)).toMatch(/^Unexpected value\(s\) `compact-2026-01-12` for the `anthropic-beta` header/);
      plain.script({ text: 'plain is fine' });
      expect((await post(plain, {})).status).toBe(200);
    } finally {
      await plain.stop();
    }
  });
});
