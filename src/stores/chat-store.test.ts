import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../agent/anthropic-model';
import { EMPTY_APP_CONFIG } from '../domain/app-config';
import type { Registry } from '../mcp/registry';
import { createToolIndex } from '../search/tool-index';
import { MODEL_API_OWNER } from '../storage/vault';
import { startFakeAnthropic, type FakeAnthropic } from '../../test/fakes/fake-anthropic';
import { sha256Hex } from '../../test/fakes/memory-stores';
import { createTestRegistry } from '../../test/fakes/test-registry';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import { startTestMcpServer, type TestMcpServer } from '../../test/fixtures/test-mcp-server';
import { createChat, type ChatActions, type ChatStore } from './chat-store';
import { syncToolIndex } from './thread-tools';
import { threadTokenTotals } from './token-totals';
import { API_KEY_SLOT } from './turn-runner';

let api: FakeAnthropic;
let mcp: TestMcpServer;
let opened: TestStorage;
let registry: Registry;
let stopSync: () => void;
let chat: { store: ChatStore; actions: ChatActions; dispose: () => void };

const toolCalls = () => mcp.requests.filter((r) => r.rpcMethod === 'tools/call').length;
const userTexts = () => chat.store.getState().messages.filter((m) => m.role === 'user' && m.blocks.some((b) => b.type === 'text'));

beforeAll(async () => {
  [api, mcp, opened] = await Promise.all([startFakeAnthropic(), startTestMcpServer({ toolCount: 2 }), openTestStorage()]);
  const { storage } = opened;
  const profile = await storage.profiles.ensureActive();
  // Defer always and preload nothing: only mentions (and tool_search) bring a tool into a call.
  await storage.profiles.update(profile.id, (p) => ({ ...p, preferences: { ...p.preferences, toolSearch: { deferral: 'always', preloadCount: 0 } } }));
  await storage.vault.put({ profileId: profile.id, owner: MODEL_API_OWNER, slot: API_KEY_SLOT }, 'sk-ant-chat-store');
  ({ registry } = createTestRegistry());
  await registry.register({ id: 'calc', name: 'Calc', url: mcp.url }, 'user');
  await registry.connect('calc');
  const index = createToolIndex();
  stopSync = syncToolIndex(registry, index);
  chat = createChat({
    storage,
    registry,
    index,
    profileId: profile.id,
    defaults: EMPTY_APP_CONFIG.defaults,
    // No SDK retries: one scripted error is one failed call.
    createModel: (apiKey) => createAnthropicModel({ apiKey, baseUrl: api.url, fetch: (input, init) => fetch(input, init), maxRetries: 0 }),
    sha256Hex,
    now: () => Date.now(),
  });
  // The person allows every tool call the store asks about.
  chat.store.subscribe((state) => state.pendingApprovals.forEach((p) => p.answer('allow-once')));
});

afterAll(async () => {
  chat?.dispose();
  stopSync?.();
  await registry?.close();
  opened?.close();
  await api?.stop();
  await mcp?.stop();
});

beforeEach(async () => {
  await chat.actions.newThread();
  await chat.actions.setThreadServers(chat.store.getState().activeThreadId!, ['calc']);
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
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', status: 'complete', blocks: [{ type: 'text', text: 'Recovered answer.' }] });
    // The failed attempt stays (error and trace) without content, so the model never sees it.
    expect(messages.find((m) => m.id === failed?.id)).toMatchObject({ status: 'error', blocks: [] });
    expect(api.requests).toHaveLength(before + 1);
    expect(api.requests.at(-1)?.body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hello there' }] }]);
    // Stored as shown.
    const stored = await opened.storage.messages.list(chat.store.getState().activeThreadId!);
    expect(stored.items.filter((m) => m.role === 'user')).toHaveLength(1);
  });

  it('after a tool call, goes on from the tool result instead of calling the tool again', async () => {
    api.script({ toolUses: [{ name: 'mcp__calc__add', input: { a: 2, b: 3 } }] }, { error: { status: 529 } }, { text: 'It is 5.' });
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

describe('@ mentions', () => {
  it('offers the thread\'s enabled server and its tools, filtered by what was typed', () => {
    expect(chat.actions.mentionOptions('').map((o) => o.label)).toEqual(['Calc', 'add', 'slow', 'bad-schema', 'tool-0', 'tool-1']);
    expect(chat.actions.mentionOptions('too').map((o) => o.insert)).toEqual(['tool-0', 'tool-1']);
    expect(chat.actions.mentionOptions('calc').map((o) => o.kind)).toEqual(['server', 'tool', 'tool', 'tool', 'tool', 'tool']);
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
      { toolUses: [{ name: 'mcp__calc__add', input: { a: 1, b: 1 } }], usage: { input_tokens: 1200, output_tokens: 40, cache_read_input_tokens: 300, cache_creation_input_tokens: 50 } },
      { text: 'Two.', usage: { input_tokens: 1500, output_tokens: 8, cache_read_input_tokens: 350, cache_creation_input_tokens: 0 } },
    );
    await chat.actions.send('One plus one with @add');
    expect(threadTokenTotals(chat.store.getState().messages)).toEqual({ input: 2700, output: 48, cacheRead: 650, cacheWrite: 50, calls: 2 });
  });

  it('count no tokens for a failed call, and those of its retry', async () => {
    api.script({ error: { status: 500 } }, { text: 'Ok.', usage: { input_tokens: 10, output_tokens: 2, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } });
    await chat.actions.send('Try');
    expect(threadTokenTotals(chat.store.getState().messages).calls).toBe(0);
    await chat.actions.retry();
    expect(threadTokenTotals(chat.store.getState().messages)).toEqual({ input: 10, output: 2, cacheRead: 0, cacheWrite: 0, calls: 1 });
  });
});
