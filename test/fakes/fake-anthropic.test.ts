// The fake Anthropic API, spoken to by the real @anthropic-ai/sdk: streaming, tools, thinking, usage, models, auth.
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic } from './fake-anthropic';
import { ask, MODEL, sdkClient, useFakeAnthropic } from './fake-anthropic-client';

const TOOLS: Anthropic.Tool[] = [
  {
    name: 'search_docs',
    description: 'Search',
    input_schema: { type: 'object', properties: { query: { type: 'string' } } },
  },
  { name: 'get_page', description: 'Fetch', input_schema: { type: 'object' }, defer_loading: true },
];

const fake = useFakeAnthropic().current;
const clientFor = (options: ConstructorParameters<typeof Anthropic>[0] = {}) => sdkClient(fake().url, options);

describe('fake Anthropic API: streaming', () => {
  it('streams text deltas that the SDK assembles into the final message', async () => {
    fake().script({ text: ['Hel', 'lo ', 'world'] });
    const stream = ask(clientFor());
    const deltas: string[] = [];
    stream.on('text', (delta) => deltas.push(delta));
    const message = await stream.finalMessage();
    expect(deltas).toEqual(['Hel', 'lo ', 'world']);
    expect(message.content).toEqual([{ type: 'text', text: 'Hello world' }]);
    expect(message).toMatchObject({ role: 'assistant', model: MODEL, stop_reason: 'end_turn', type: 'message' });
    expect(message.id).toMatch(/^msg_/);
    expect(stream.request_id).toMatch(/^req_fake_/);
  });

  it('sends every SSE frame with its event: line, in the real order', async () => {
    fake().script({ text: ['a', 'b'] });
    const response = await fetch(`${fake().url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = (await response.text())
      .trim()
      .split('\n\n')
      .map((frame) => frame.split('\n'));
    for (const lines of frames) {
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^event: /);
      expect(lines[1]).toMatch(/^data: \{/);
      expect(JSON.parse(lines[1]!.slice(6))).toMatchObject({ type: lines[0]!.slice(7) });
    }
    expect(frames.map((lines) => lines[0]!.slice(7))).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('streams tool input as several input_json_delta pieces that the SDK parses into the object', async () => {
    const input = { query: 'weather in Paris', limit: 3, filters: { lang: ['fr', 'en'] } };
    fake().script({ text: 'Let me search.', toolUses: [{ id: 'toolu_1', name: 'search_docs', input, chunks: 4 }] });
    const stream = ask(clientFor(), { tools: TOOLS });
    const pieces: string[] = [];
    stream.on('inputJson', (partial) => pieces.push(partial));
    const message = await stream.finalMessage();
    expect(pieces).toHaveLength(4);
    expect(pieces.join('')).toBe(JSON.stringify(input));
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'text', text: 'Let me search.' },
      { type: 'tool_use', id: 'toolu_1', name: 'search_docs', input },
    ]);
  });

  it('answers parallel tool calls, then accepts their tool_results and records what was sent', async () => {
    fake().script(
      {
        toolUses: [
          { name: 'search_docs', input: { query: 'a' } },
          { name: 'get_page', input: { url: 'https://x' } },
        ],
      },
      { text: 'Done.' },
    );
    const client = clientFor();
    const first = await ask(client, { tools: TOOLS }).finalMessage();
    const uses = first.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
    expect(uses.map((use) => [use.name, use.input])).toEqual([
      ['search_docs', { query: 'a' }],
      ['get_page', { url: 'https://x' }],
    ]);
    expect(new Set(uses.map((use) => use.id)).size).toBe(2);

    const results: Anthropic.ToolResultBlockParam[] = uses.map((use) => ({
      type: 'tool_result',
      tool_use_id: use.id,
      content: 'ok',
    }));
    const messages: Anthropic.MessageParam[] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: first.content },
      { role: 'user', content: results },
    ];
    const second = await ask(client, {
      tools: TOOLS,
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      messages,
    }).finalText();
    expect(second).toBe('Done.');

    expect(fake().requests).toHaveLength(2);
    const [call1, call2] = fake().requests;
    expect(call1).toMatchObject({
      index: 0,
      path: '/v1/messages',
      stream: true,
      toolNames: ['search_docs', 'get_page'],
      deferredToolNames: ['get_page'],
    });
    expect(call1!.headers).toMatchObject({ authorization: 'Bearer test-key', 'content-type': 'application/json' });
    expect(call1!.headers['anthropic-version']).toBeTruthy();
    expect(call1!.headers['x-stainless-helper-method']).toBe('stream');
    expect(call2!.body.system).toEqual([{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }]);
    expect(call2!.body.messages.at(-1)?.content).toEqual(results);
    expect(call2!.body).toMatchObject({ model: MODEL, max_tokens: 1024, stream: true });
    expect(fake().pendingTurns).toBe(0);
  });

  it('streams a thinking block with thinking_delta pieces and a signature_delta', async () => {
    fake().script({ thinking: 'The user greets me; I should greet back.', text: 'Hello!' });
    // The real API wants max_tokens above the thinking budget.
    const stream = ask(clientFor(), { max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 2000 } });
    const thoughts: string[] = [];
    stream.on('thinking', (delta) => thoughts.push(delta));
    const message = await stream.finalMessage();
    expect(thoughts.length).toBeGreaterThan(1);
    const [thinking, text] = message.content;
    expect(thinking).toMatchObject({ type: 'thinking', thinking: 'The user greets me; I should greet back.' });
    expect(thinking?.type === 'thinking' && thinking.signature.length).toBeGreaterThan(10);
    expect(text).toEqual({ type: 'text', text: 'Hello!' });
  });

  it('reports the scripted usage in finalMessage().usage, and a stop reason', async () => {
    const usage = {
      input_tokens: 1234,
      output_tokens: 56,
      cache_creation_input_tokens: 100,
      cache_read_input_tokens: 900,
    };
    fake().script({ text: 'cut short', usage, stopReason: 'max_tokens' });
    const message = await ask(clientFor()).finalMessage();
    expect(message.usage).toMatchObject(usage);
    expect(message.stop_reason).toBe('max_tokens');
  });

  it('estimates usage when not scripted: input grows with the request, output with the content', async () => {
    fake().script({ text: 'short' }, { text: 'a much longer answer than the first one' });
    const client = clientFor();
    const small = await ask(client).finalMessage();
    const large = await ask(client, { messages: [{ role: 'user', content: 'Hi '.repeat(200) }] }).finalMessage();
    expect(large.usage.input_tokens).toBeGreaterThan(small.usage.input_tokens);
    expect(large.usage.output_tokens).toBeGreaterThan(small.usage.output_tokens);
  });

  it('answers a function turn from the request', async () => {
    fake().script((request) => ({ text: `tools: ${request.toolNames.join(',')}` }));
    await expect(ask(clientFor(), { tools: TOOLS }).finalText()).resolves.toBe('tools: search_docs,get_page');
  });

  it('answers stream: false with a JSON Message', async () => {
    fake().script({
      thinking: 'hmm',
      text: 'Sure.',
      toolUses: [{ id: 'toolu_9', name: 'search_docs', input: { query: 'q' } }],
    });
    const message = await clientFor().messages.create({
      model: MODEL,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(message.content).toMatchObject([
      { type: 'thinking', thinking: 'hmm' },
      { type: 'text', text: 'Sure.' },
      { type: 'tool_use', id: 'toolu_9', name: 'search_docs', input: { query: 'q' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(fake().requests[0]?.stream).toBe(false);
  });
});

describe('fake Anthropic API: models and auth', () => {
  it('lists models as pages the SDK paginates through', async () => {
    const client = clientFor();
    const page = await client.models.list({ limit: 2 });
    expect(page.data).toHaveLength(2);
    expect(page.has_more).toBe(true);
    expect(page.first_id).toBe(page.data[0]?.id);
    expect(page.last_id).toBe(page.data[1]?.id);
    expect(page.data[0]).toMatchObject({
      type: 'model',
      id: expect.any(String) as string,
      display_name: expect.any(String) as string,
    });
    const ids: string[] = [];
    for await (const model of client.models.list({ limit: 2 })) ids.push(model.id);
    expect(ids).toEqual(['claude-opus-5', 'claude-sonnet-5', 'claude-sonnet-4-6', 'claude-haiku-4-5-20251001']);
    await expect(client.models.retrieve('claude-haiku-4-5-20251001')).resolves.toMatchObject({
      display_name: 'Claude Haiku 4.5',
    });
    await expect(client.models.retrieve('claude-nope')).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('answers a message to a model it does not serve with 404 not_found_error "model: <id>", as the API does', async () => {
    const client = clientFor();
    const send = (model: string) =>
      client.messages.create({ model, max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] });
    const refused = await send('claude-nope').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.NotFoundError);
    expect((refused as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({
      type: 'error',
      error: { type: 'not_found_error', message: 'model: claude-nope' },
    });
    // A listed id, and the alias of a dated one, are served.
    fake().script({ text: 'by id' }, { text: 'by alias' });
    await expect(send('claude-haiku-4-5-20251001')).resolves.toMatchObject({ content: [{ text: 'by id' }] });
    await expect(send('claude-haiku-4-5')).resolves.toMatchObject({ content: [{ text: 'by alias' }] });
    // A prefix that is not an alias is not.
    await expect(send('claude-haiku')).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    // The alias names the model on GET /v1/models/{id} too ("Model identifier or alias").
    await expect(client.models.retrieve('claude-haiku-4-5')).resolves.toMatchObject({
      id: 'claude-haiku-4-5-20251001',
    });
    // A request with no model at all is malformed (400), not a model that is not found.
    const missing = await fetch(`${fake().url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(missing.status).toBe(400);
  });

  it('accepts Authorization: Bearer from authToken and x-api-key, and checks the key when given one', async () => {
    const keyed = await startFakeAnthropic({ apiKey: 'secret' });
    try {
      const keyedClient = (options: ConstructorParameters<typeof Anthropic>[0]) => sdkClient(keyed.url, options);
      keyed.script({ text: 'bearer ok' }, { text: 'x-api-key ok' });
      await expect(ask(keyedClient({ apiKey: null, authToken: 'secret' })).finalText()).resolves.toBe('bearer ok');
      expect(keyed.requests[0]?.headers.authorization).toBe('Bearer secret');
      const withHeader = keyedClient({ apiKey: null, defaultHeaders: { 'x-api-key': 'secret', Authorization: null } });
      await expect(ask(withHeader).finalText()).resolves.toBe('x-api-key ok');
      expect(keyed.requests[1]?.headers).not.toHaveProperty('authorization');
      const wrong = await ask(keyedClient({ apiKey: 'nope' }))
        .finalMessage()
        .catch((error: unknown) => error);
      expect(wrong).toBeInstanceOf(Anthropic.AuthenticationError);
      expect(keyed.pendingTurns).toBe(0);
    } finally {
      await keyed.stop();
    }
  });
});
