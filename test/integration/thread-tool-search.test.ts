// A thread's own tool-search choices (issue #23): mode, strategy and preload count over the profile's settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat, type ChatActions, type ChatStore } from '../../src/stores/chat-store';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import { startTestApp, type TestApp } from '../fakes/test-app';
import { startTestMcpServer, type TestMcpServer } from '../fixtures/test-mcp-server';

let app: TestApp;
let api: FakeAnthropic;
let mcp: TestMcpServer;
let chat: { store: ChatStore; actions: ChatActions; dispose: () => void };

beforeAll(async () => {
  // The profile: client mode, defer always, preload nothing.
  [app, mcp] = await Promise.all([
    startTestApp({ apiKey: 'sk-ant-thread-search', toolSearch: { deferral: 'always', preloadCount: 0 } }),
    startTestMcpServer({ toolCount: 2 }),
  ]);
  ({ api } = app);
  await app.registry.register({ id: 'calc', name: 'Calc', url: mcp.url }, 'user');
  await app.registry.connect('calc');
  chat = createChat(app.deps);
});

afterAll(async () => {
  chat?.dispose();
  await app?.close();
  await mcp?.stop();
});

async function threadWithCalc(): Promise<string> {
  await chat.actions.newThread();
  const threadId = chat.store.getState().activeThreadId!;
  await chat.actions.setThreadServers(threadId, ['calc']);
  return threadId;
}

const sentTools = () => (api.requests.at(-1)?.body.tools ?? []).map((tool) => ('name' in tool ? tool.name : tool.type));

describe("a thread's tool-search settings", () => {
  it('follow the profile when the thread sets none', async () => {
    await threadWithCalc();
    api.script({ text: 'Sum done.' });
    await chat.actions.send('Add two numbers');
    expect(sentTools()).toEqual(['tool_search']);
    expect(api.requests.at(-1)?.deferredToolNames).toEqual([]);
  });

  it('a thread set to Anthropic mode sends every tool deferred, whatever the profile says', async () => {
    const threadId = await threadWithCalc();
    expect(await chat.actions.updateThreadSettings(threadId, { toolSearch: { mode: 'anthropic' } })).toBeUndefined();
    api.script({ text: 'Sum done.' });
    await chat.actions.send('Add two numbers');
    expect(api.requests.at(-1)?.deferredToolNames).toContain('mcp__calc__add');
  });

  it("a thread set to server-side search sends the API's own search tool and every tool deferred", async () => {
    const threadId = await threadWithCalc();
    expect(await chat.actions.updateThreadSettings(threadId, { toolSearch: { mode: 'server' } })).toBeUndefined();
    api.script({ text: 'Sum done.' });
    await chat.actions.send('Add two numbers');
    const types = (api.requests.at(-1)?.body.tools ?? []).map((tool) => ('type' in tool ? tool.type : undefined));
    expect(types).toContain('tool_search_tool_bm25_20251119');
    expect(sentTools()).not.toContain('tool_search');
    expect(api.requests.at(-1)?.deferredToolNames).toContain('mcp__calc__add');
  });

  it('a thread preload count brings the best tools for the message into the first call', async () => {
    const threadId = await threadWithCalc();
    await chat.actions.updateThreadSettings(threadId, { toolSearch: { preloadCount: 1 } });
    api.script({ text: 'Sum done.' });
    await chat.actions.send('Add a and b');
    expect(sentTools()).toEqual(['tool_search', 'mcp__calc__add']);
  });

  it('refuses a preload count out of range with the reason, keeping what was saved', async () => {
    const threadId = await threadWithCalc();
    await chat.actions.updateThreadSettings(threadId, { toolSearch: { strategy: 'regex' } });
    const error = await chat.actions.updateThreadSettings(threadId, { toolSearch: { preloadCount: 99 } });
    expect(error).toContain('Preload count must be a whole number from 0 to 20');
    expect((await app.opened.storage.threads.get(threadId))?.toolSearch).toEqual({ strategy: 'regex' });
  });
});
