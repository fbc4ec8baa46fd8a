import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../../test/fakes/fake-anthropic';
import { startTestApp, type TestApp } from '../../test/fakes/test-app';
import { startTestMcpServer, type TestMcpServer } from '../../test/fixtures/test-mcp-server';
import { createChat, type ChatActions, type ChatStore } from './chat-store';
import { threadTokenTotals } from './token-totals';

let app: TestApp;
let api: FakeAnthropic;
let mcp: TestMcpServer;
let chat: { store: ChatStore; actions: ChatActions; dispose: () => void };

const toolCalls = () => mcp.requests.filter((r) => r.rpcMethod === 'tools/call').length;
const userTexts = () =>
  chat.store.getState().messages.filter((m) => m.role === 'user' && m.blocks.some((b) => b.type === 'text'));

beforeAll(async () => {
  // Defer always and preload nothing: only mentions (and tool_search) bring a tool into a call.
  // No SDK retries (the test app's default): one scripted error is one failed call.
  [app, mcp] = await Promise.all([
    startTestApp({ apiKey: 'sk-ant-chat-store', toolSearch: { deferral: 'always', preloadCount: 0 } }),
    startTestMcpServer({ toolCount: 2 }),
  ]);
  ({ api } = app);
  await app.registry.register({ id: 'calc', name: 'Calc', url: mcp.url }, 'user');
  await app.registry.connect('calc');
  chat = createChat(app.deps);
  // The person allows every tool call the store asks about.
  chat.store.subscribe((state) => state.pendingApprovals.forEach((p) => p.answer('allow-once')));
});

afterAll(async () => {
  chat?.dispose();
  await app?.close();
  await mcp?.stop();
});

beforeEach(async () => {
  await chat.actions.newThread();
  await chat.actions.setThreadServers(chat.store.getState().activeThreadId!, ['calc']);
});

describe('sending', () => {
  it('a message sent while a new thread is being made goes nowhere: not into the previous thread', async () => {
    const previous = chat.store.getState().activeThreadId!;
    // A thread with a message: New thread makes another (an empty one would simply stay open).
    await app.opened.storage.messages.append(previous, {
      role: 'user',
      blocks: [{ type: 'text', text: 'Earlier' }],
      status: 'complete',
    });
    await chat.actions.openThread(previous);
    const requestsBefore = api.requests.length;
    const making = chat.actions.newThread();
    expect(chat.store.getState().activeThreadId).toBeUndefined();
    await chat.actions.send('Too early');
    const made = await making;
    // The thread it made, open now: the composer's send checks it is still the one open before it sends.
    expect(made).toBe(chat.store.getState().activeThreadId);
    expect(made).not.toBe(previous);
    expect((await app.opened.storage.messages.list(previous)).items.map((m) => m.blocks)).toEqual([
      [{ type: 'text', text: 'Earlier' }],
    ]);
    expect(api.requests).toHaveLength(requestsBefore);
  });

  it("a new thread's first message is running at once: a second send or a Retry meanwhile does nothing", async () => {
    api.script({ text: 'One answer.' });
    const first = chat.actions.send('First question');
    expect(chat.store.getState().isRunning).toBe(true);
    await Promise.all([first, chat.actions.send('Second question'), chat.actions.retry()]);
    expect(userTexts().map((m) => m.blocks)).toEqual([[{ type: 'text', text: 'First question' }]]);
    expect(chat.store.getState().messages.at(-1)).toMatchObject({
      role: 'assistant',
      status: 'complete',
      blocks: [{ type: 'text', text: 'One answer.' }],
    });
    expect(chat.store.getState().threads.find((t) => t.id === chat.store.getState().activeThreadId)?.title).toBe(
      'First question',
    );
  });
});

describe('Retry after a failed model call', () => {
  it('runs the turn again with the person message stored once, and keeps the failed attempt with its error', async () => {
    api.script({ error: { status: 500, message: 'boom' } }, { text: 'Recovered answer.' });
    await chat.actions.send('Hello there');
    const failed = chat.store.getState().messages.at(-1);
    expect(failed).toMatchObject({ role: 'assistant', status: 'error' });
    expect(failed?.error).toContain('The API had an internal error');

    const before = api.requests.length;
    await chat.actions.retry();
    const messages = chat.store.getState().messages;
    expect(userTexts()).toHaveLength(1);
    expect(messages.at(-1)).toMatchObject({
      role: 'assistant',
      status: 'complete',
      blocks: [{ type: 'text', text: 'Recovered answer.' }],
    });
    // The failed attempt stays (error and trace, here no text had come), marked retried: the model never sees it.
    expect(messages.find((m) => m.id === failed?.id)).toMatchObject({ status: 'error', blocks: [], retried: true });
    expect(api.requests).toHaveLength(before + 1);
    expect(api.requests.at(-1)?.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hello there', cache_control: { type: 'ephemeral' } }] },
    ]);
    // Stored as shown.
    const stored = await app.opened.storage.messages.list(chat.store.getState().activeThreadId!);
    expect(stored.items.filter((m) => m.role === 'user')).toHaveLength(1);
  });

  it('after a tool call, goes on from the tool result instead of calling the tool again', async () => {
    api.script(
      { toolUses: [{ name: 'mcp__calc__add', input: { a: 2, b: 3 } }] },
      { error: { status: 529 } },
      { text: 'It is 5.' },
    );
    const calls = toolCalls();
    await chat.actions.send('Add 2 and 3 with @add');
    expect(chat.store.getState().messages.at(-1)?.error).toContain('overloaded');
    await chat.actions.retry();
    expect(chat.store.getState().messages.at(-1)?.blocks).toEqual([{ type: 'text', text: 'It is 5.' }]);
    expect(toolCalls()).toBe(calls + 1);
    expect(userTexts()).toHaveLength(1);
    const sent = api.requests.at(-1)?.body.messages ?? [];
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(sent.at(-1))).toContain('2+3=5');
  });

  it('does nothing when the thread does not end in a failed answer', async () => {
    api.script({ text: 'Fine.' });
    await chat.actions.send('All good?');
    const before = api.requests.length;
    await chat.actions.retry();
    expect(api.requests).toHaveLength(before);
    expect(chat.store.getState().messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});

describe('an answer that ends before it is done', () => {
  it('says it was cut short at the length limit (it looks finished otherwise); a finished one has no note', async () => {
    api.script({ text: 'This answer gets cut because it hits the', stopReason: 'max_tokens' });
    await chat.actions.send('Write a very long essay');
    const cut = chat.store.getState().messages.at(-1);
    expect(cut).toMatchObject({ role: 'assistant', status: 'complete' });
    expect(cut?.error).toMatch(
      /^Cut short: the answer reached the longest one allowed \([\d,]+ tokens\)\. Ask to continue/,
    );
    api.script({ text: 'Short and done.' });
    await chat.actions.send('Now a short one');
    expect(chat.store.getState().messages.at(-1)).toMatchObject({ status: 'complete' });
    expect(chat.store.getState().messages.at(-1)?.error).toBeUndefined();
  });
});

describe('@ mentions', () => {
  it("offers the thread's enabled server and its tools, filtered by what was typed", () => {
    expect(chat.actions.mentionOptions('').map((o) => o.label)).toEqual([
      'Calc',
      'add',
      'slow',
      'bad-schema',
      'tool-0',
      'tool-1',
    ]);
    expect(chat.actions.mentionOptions('too').map((o) => o.insert)).toEqual(['tool-0', 'tool-1']);
    expect(chat.actions.mentionOptions('calc').map((o) => o.kind)).toEqual([
      'server',
      'tool',
      'tool',
      'tool',
      'tool',
      'tool',
    ]);
  });

  it('offers nothing from a server the thread has switched off', async () => {
    await chat.actions.setThreadServers(chat.store.getState().activeThreadId!, []);
    expect(chat.actions.mentionOptions('')).toEqual([]);
  });

  it('a picked tool is carried by the next model call, with the other deferred tools left out', async () => {
    const picked = chat.actions.mentionOptions('tool-1')[0];
    expect(picked?.insert).toBe('tool-1');
    api.script({ text: 'Done.' });
    await chat.actions.send(`Please run @${picked?.insert} now`);
    expect(api.requests.at(-1)?.toolNames).toEqual(['tool_search', 'mcp__calc__tool-1']);
  });
});

describe('token totals', () => {
  it('add up input, output, cache reads and writes of every model call in the thread', async () => {
    api.script(
      {
        toolUses: [{ name: 'mcp__calc__add', input: { a: 1, b: 1 } }],
        usage: { input_tokens: 1200, output_tokens: 40, cache_read_input_tokens: 300, cache_creation_input_tokens: 50 },
      },
      {
        text: 'Two.',
        usage: { input_tokens: 1500, output_tokens: 8, cache_read_input_tokens: 350, cache_creation_input_tokens: 0 },
      },
    );
    await chat.actions.send('One plus one with @add');
    expect(threadTokenTotals(chat.store.getState().messages)).toEqual({
      input: 2700,
      output: 48,
      cacheRead: 650,
      cacheWrite: 50,
      calls: 2,
      // Claude Sonnet 5's prices: $2 in, $10 out, $0.20 cache read, $2.50 cache write per million tokens.
      usd: (2700 * 2 + 48 * 10 + 650 * 0.2 + 50 * 2.5) / 1_000_000,
      unpriced: 0,
    });
  });

  it('count no tokens for a failed call, and those of its retry', async () => {
    api.script(
      { error: { status: 500 } },
      {
        text: 'Ok.',
        usage: { input_tokens: 10, output_tokens: 2, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
      },
    );
    await chat.actions.send('Try');
    expect(threadTokenTotals(chat.store.getState().messages).calls).toBe(0);
    await chat.actions.retry();
    expect(threadTokenTotals(chat.store.getState().messages)).toEqual({
      input: 10,
      output: 2,
      cacheRead: 0,
      cacheWrite: 0,
      calls: 1,
      usd: (10 * 2 + 2 * 10) / 1_000_000,
      unpriced: 0,
    });
  });
});
