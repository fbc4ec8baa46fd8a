// The in-memory model port is no kinder than the contract fake: it refuses what the real API refuses.
import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/domain/model-errors';
import { ScriptedModel } from './fake-agent-ports';

const request = (tools: Record<string, unknown>[]) => ({
  model: 'claude-sonnet-5',
  maxTokens: 1024,
  messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Hi' }] }],
  tools: tools as never,
});

describe('ScriptedModel', () => {
  it('fails a request the API refuses as the adapter reports a 400, and plays the script for a good one', async () => {
    const model = new ScriptedModel([{ blocks: [{ type: 'text', text: 'ok' }] }]);
    const schema = { type: 'object' };
    const bad = request([
      { name: 'tool_search', input_schema: schema },
      { name: 'get_page', input_schema: schema, defer_loading: true, cache_control: { type: 'ephemeral' } },
    ]);
    const signal = new AbortController().signal;
    const error = await model.stream(bad, () => undefined, signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ reason: 'bad-request', status: 400 });
    expect((error as Error).message).toContain(
      "cache_control cannot be set on a tool with defer_loading: true (tool 'get_page')",
    );
    const good = request([{ name: 'tool_search', input_schema: schema, cache_control: { type: 'ephemeral' } }]);
    await expect(model.stream(good, () => undefined, signal)).resolves.toMatchObject({ stopReason: 'end_turn' });
  });
});
