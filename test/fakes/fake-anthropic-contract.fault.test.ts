// Each documented request rule of the contract fake: a broken request is refused the way the real API refuses it
// (400, invalid_request_error, its message), and the corrected request is accepted.
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic';
import { MODEL, useFakeAnthropic } from './fake-anthropic-client';

type Body = Record<string, unknown>;

const fake = useFakeAnthropic().current;

async function post(target: FakeAnthropic, body: Body, headers: Record<string, string> = {}) {
  const response = await fetch(`${target.url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': 'k', 'anthropic-version': '2023-06-01', 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: MODEL, max_tokens: 1024, messages: [{ role: 'user', content: 'Hi' }], ...body }),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

/** Asserts the fake refuses `body` with the real API's 400 and `message`. */
async function expectRefused(body: Body, message: string | RegExp, headers?: Record<string, string>) {
  const answer = await post(fake(), body, headers);
  expect(answer.status).toBe(400);
  expect(answer.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  const error = answer.body.error as { message: string };
  if (typeof message === 'string') expect(error.message).toBe(message);
  else expect(error.message).toMatch(message);
}

async function expectAccepted(body: Body, headers?: Record<string, string>) {
  fake().script({ text: 'ok' });
  const answer = await post(fake(), body, headers);
  expect(answer.body).toMatchObject({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
  expect(answer.status).toBe(200);
}

const tool = (name: string, extra: Body = {}): Body => ({
  name,
  description: `The ${name} tool`,
  input_schema: { type: 'object', properties: { query: { type: 'string' } } },
  ...extra,
});
const EPHEMERAL = { type: 'ephemeral' };

/** A turn that used `tool_search` and got `refs` back as tool_reference blocks. */
const searchedFor = (...refs: string[]): Body[] => [
  { role: 'user', content: 'find a page tool' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'tool_search', input: { query: 'page' } }] },
  {
    role: 'user',
    content: [
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: refs.map((n) => ({ type: 'tool_reference', tool_name: n })),
      },
    ],
  },
];

describe('contract fake: tool definitions', () => {
  it('refuses a custom tool name outside ^[a-zA-Z0-9_-]{1,64}$, accepts one inside', async () => {
    const pattern = "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'";
    await expectRefused({ tools: [tool('weather.get')] }, pattern);
    await expectRefused({ tools: [tool('x'.repeat(65))] }, pattern);
    await expectAccepted({ tools: [tool('server-1__get_weather'), tool('y'.repeat(64))] });
  });

  it('refuses an input_schema that is missing or not of type object', async () => {
    await expectRefused(
      { tools: [{ name: 'a', input_schema: { type: 'string' } }] },
      /input_schema.type: Input should be 'object'/,
    );
    await expectRefused({ tools: [{ name: 'a' }] }, 'tools.0.custom.input_schema: Field required');
    await expectAccepted({ tools: [{ name: 'a', input_schema: { type: 'object' } }] });
  });

  it('refuses a fifth cache_control breakpoint, accepts four', async () => {
    const marked = (n: number) => Array.from({ length: n }, (_, i) => tool(`t${i}`, { cache_control: EPHEMERAL }));
    await expectRefused({ tools: marked(5) }, 'A maximum of 4 blocks with cache_control may be provided. Found 5.');
    await expectAccepted({ tools: marked(4) });
  });
});

describe('contract fake: defer_loading and tool_reference', () => {
  it('refuses a deferred tool search tool', async () => {
    const search = { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' };
    const deferred = tool('get_page', { defer_loading: true });
    await expectRefused(
      { tools: [{ ...search, defer_loading: true }, deferred] },
      /tool search tool cannot have defer_loading/,
    );
    await expectAccepted({ tools: [search, deferred] });
  });

  it('refuses a request whose every tool is deferred', async () => {
    const deferred = [tool('a', { defer_loading: true }), tool('b', { defer_loading: true })];
    await expectRefused(
      { tools: deferred },
      'All tools have defer_loading set. At least one tool must be non-deferred.',
    );
    await expectAccepted({ tools: [tool('tool_search'), ...deferred] });
  });

  it('refuses defer_loading together with cache_control on one tool (the breakpoint belongs on a loaded tool)', async () => {
    const search = tool('tool_search');
    await expectRefused(
      { tools: [search, tool('get_page', { defer_loading: true, cache_control: EPHEMERAL })] },
      "tools.1: cache_control cannot be set on a tool with defer_loading: true (tool 'get_page').",
    );
    await expectAccepted({
      tools: [{ ...search, cache_control: EPHEMERAL }, tool('get_page', { defer_loading: true })],
    });
  });

  it('refuses a tool_reference to a tool the request does not define', async () => {
    const tools = [tool('tool_search'), tool('get_page', { defer_loading: true })];
    await expectRefused(
      { tools, messages: searchedFor('get_weather') },
      "messages.2.content.0.content.0: Tool reference 'get_weather' has no corresponding tool definition in `tools`.",
    );
    await expectAccepted({ tools, messages: searchedFor('get_page') });
  });
});

describe('contract fake: the API’s own tool search tool (server mode)', () => {
  const bm25 = { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };
  const deferred = [
    tool('get_page', { defer_loading: true }),
    tool('get_weather', { description: 'Weather forecast for a city', defer_loading: true }),
  ];
  /** A thread whose assistant turn carries the API's search and its answer, then the found tool's call. */
  const serverSearched = (...refs: string[]): Body[] => [
    { role: 'user', content: 'weather in Oslo?' },
    {
      role: 'assistant',
      content: [
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'tool_search_tool_bm25', input: { query: 'weather' } },
        {
          type: 'tool_search_tool_result',
          tool_use_id: 'srvtoolu_1',
          content: {
            type: 'tool_search_tool_search_result',
            tool_references: refs.map((n) => ({ type: 'tool_reference', tool_name: n })),
          },
        },
        { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { query: 'Oslo' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'sunny' }] },
  ];

  it('refuses an unknown variant, or a variant under another name', async () => {
    await expectRefused(
      { tools: [{ type: 'tool_search_tool_fuzzy_20251119', name: 'tool_search_tool_fuzzy' }, ...deferred] },
      "tools.0: Input tag 'tool_search_tool_fuzzy_20251119' found using 'type' does not match any of the expected tags",
    );
    await expectRefused(
      { tools: [{ ...bm25, name: 'tool_search_tool_regex' }, ...deferred] },
      "tools.0.tool_search_tool_bm25_20251119.name: Input should be 'tool_search_tool_bm25'",
    );
    await expectAccepted({ tools: [bm25, ...deferred] });
  });

  it('refuses a tool_search_tool_result reference to a tool the request does not define', async () => {
    await expectRefused(
      { tools: [bm25, ...deferred], messages: serverSearched('get_forecast') },
      "messages.1.content.1.content.tool_references.0: Tool reference 'get_forecast' has no corresponding tool definition in `tools`.",
    );
    await expectAccepted({ tools: [bm25, ...deferred], messages: serverSearched('get_weather') });
  });

  it('answers a search with server_tool_use and tool_search_tool_result naming the deferred tools that match', async () => {
    fake().script({ serverToolSearch: { query: 'weather forecast' }, toolUses: [{ name: 'get_weather', input: {} }] });
    const answer = await post(fake(), { tools: [bm25, ...deferred] });
    expect(answer.status).toBe(200);
    const content = answer.body.content as Body[];
    expect(content.map((b) => b.type)).toEqual(['server_tool_use', 'tool_search_tool_result', 'tool_use']);
    expect(content[0]).toMatchObject({ name: 'tool_search_tool_bm25', input: { query: 'weather forecast' } });
    expect(String(content[0]?.id)).toMatch(/^srvtoolu_/);
    expect(content[1]).toMatchObject({
      tool_use_id: content[0]?.id,
      content: {
        type: 'tool_search_tool_search_result',
        tool_references: [{ type: 'tool_reference', tool_name: 'get_weather' }],
      },
    });
  });

  it('answers a regex query over 200 characters with an invalid_tool_input error result', async () => {
    const regex = { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' };
    fake().script({ serverToolSearch: { query: 'a'.repeat(201) }, text: 'Nothing found.' });
    const answer = await post(fake(), { tools: [regex, ...deferred] });
    expect((answer.body.content as Body[])[1]).toMatchObject({
      type: 'tool_search_tool_result',
      content: { type: 'tool_search_tool_result_error', error_code: 'invalid_tool_input' },
    });
  });
});

describe('contract fake: tool_use / tool_result pairing', () => {
  const asked = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'a', input: {} }] };
  const answered = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'done' }] };
  const hi = { role: 'user', content: 'Hi' };

  it('refuses a tool_use left unanswered in the next user turn', async () => {
    await expectRefused(
      { tools: [tool('a')], messages: [hi, asked, { role: 'user', content: 'and?' }] },
      /^messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_9/,
    );
    await expectAccepted({ tools: [tool('a')], messages: [hi, asked, answered] });
  });

  it('refuses an orphan tool_result', async () => {
    const orphan = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'x' }] };
    await expectRefused(
      { messages: [orphan] },
      /^messages.0.content: unexpected `tool_use_id` found in `tool_result` blocks: toolu_x/,
    );
  });
});

describe('contract fake: extended thinking', () => {
  const thinking = (budget: number) => ({ thinking: { type: 'enabled', budget_tokens: budget } });

  it('refuses a budget under 1024 or not below max_tokens', async () => {
    await expectRefused(
      { max_tokens: 4000, ...thinking(512) },
      'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024',
    );
    await expectRefused(
      { max_tokens: 2000, ...thinking(2000) },
      /^`max_tokens` must be greater than `thinking.budget_tokens`/,
    );
    await expectAccepted({ max_tokens: 2001, ...thinking(2000) });
  });

  it('refuses an open tool loop whose assistant turn does not start with its thinking block', async () => {
    const use = { type: 'tool_use', id: 'toolu_7', name: 'a', input: {} };
    const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_7', content: '42' }] };
    const withText = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, use] },
      result,
    ];
    await expectRefused(
      { max_tokens: 4000, ...thinking(2000), tools: [tool('a')], messages: withText },
      /^messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`/,
    );
    const thought = { type: 'thinking', thinking: 'I need a.', signature: 'c2ln' };
    const withThinking = [withText[0], { role: 'assistant', content: [thought, use] }, result];
    await expectAccepted({ max_tokens: 4000, ...thinking(2000), tools: [tool('a')], messages: withThinking });
  });
});

describe('contract fake: beta headers', () => {
  it('refuses context editing and compaction without their anthropic-beta values', async () => {
    const clear = { context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] } };
    await expectRefused(
      clear,
      /'clear_tool_uses_20250919' requires the 'anthropic-beta: context-management-2025-06-27' header/,
    );
    await expectAccepted(clear, { 'anthropic-beta': 'context-management-2025-06-27' });
    // Compaction runs on the models the compaction page lists (claude-sonnet-4-6 among them).
    const compact = { model: 'claude-sonnet-4-6', context_management: { edits: [{ type: 'compact_20260112' }] } };
    await expectRefused(compact, /requires the 'anthropic-beta: compact-2026-01-12' header/, {
      'anthropic-beta': 'context-management-2025-06-27',
    });
    await expectAccepted(compact, { 'anthropic-beta': 'compact-2026-01-12' });
  });
});

describe('contract fake: context window', () => {
  it('answers "prompt is too long" to a request over the model window, and accepts one under it', async () => {
    const small = await startFakeAnthropic({ models: [{ id: MODEL, max_input_tokens: 1000 }] });
    try {
      const over = await post(small, { messages: [{ role: 'user', content: 'x'.repeat(5000) }] });
      expect(over.status).toBe(400);
      const message = (over.body.error as { message: string }).message;
      const [, tokens] = /^prompt is too long: (\d+) tokens > 1000 maximum$/.exec(message) ?? [];
      expect(Number(tokens)).toBeGreaterThan(1000);
      small.script({ text: 'fits' });
      expect((await post(small, { messages: [{ role: 'user', content: 'x'.repeat(3000) }] })).status).toBe(200);
    } finally {
      await small.stop();
    }
  });
});
