// Pinned tools and a thread's own deferral (issue #23): chosen in the thread, they shape the next model request.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/fakes/test-app';
import { startTestMcpServer, type TestMcpServer } from '../../test/fixtures/test-mcp-server';
import { createChat, type ChatActions, type ChatStore } from './chat-store';
import { withPinnedTool } from './thread-tool-choices';

let app: TestApp;
let mcp: TestMcpServer;
let chat: { store: ChatStore; actions: ChatActions; dispose: () => void };
let threadId: string;

beforeAll(async () => {
  // Defer always and preload nothing: without a pin, only tool_search is sent.
  [app, mcp] = await Promise.all([
    startTestApp({ apiKey: 'sk-ant-pins', toolSearch: { deferral: 'always', preloadCount: 0 } }),
    startTestMcpServer({ toolCount: 2 }),
  ]);
  await app.registry.register({ id: 'calc', name: 'Calc', url: mcp.url }, 'user');
  await app.registry.connect('calc');
  chat = createChat(app.deps);
});

afterAll(async () => {
  chat?.dispose();
  await app?.close();
  await mcp?.stop();
});

beforeEach(async () => {
  await chat.actions.newThread();
  threadId = chat.store.getState().activeThreadId!;
  await chat.actions.setThreadServers(threadId, ['calc']);
});

/** Sends a message and gives the tool names of the request the model API received for it. */
async function sentTools(text: string): Promise<string[]> {
  const before = app.api.requests.length;
  app.api.script({ text: 'Done.' });
  await chat.actions.send(text);
  return (app.api.requests[before]?.body.tools ?? []).map((t) => ('name' in t ? t.name : t.type));
}

describe('pinning a tool of the thread', () => {
  it('puts it in the next request, and unpinning takes it out', async () => {
    expect(await chat.actions.setPinnedTool(threadId, { serverId: 'calc', toolName: 'add' }, true)).toBeUndefined();
    expect(await sentTools('Hello')).toEqual(['tool_search', 'mcp__calc__add']);
    await chat.actions.setPinnedTool(threadId, { serverId: 'calc', toolName: 'add' }, false);
    expect(await sentTools('Again')).toEqual(['tool_search']);
  });

  it('keeps the order pins were made in, and a pin twice is one pin', () => {
    const add = { serverId: 'calc', toolName: 'add' };
    const slow = { serverId: 'calc', toolName: 'slow' };
    expect(withPinnedTool(withPinnedTool([add], slow, true), slow, true)).toEqual([add, slow]);
  });

  it('names a thread that is gone instead of failing silently', async () => {
    const error = await chat.actions.setPinnedTool('no-such-thread', { serverId: 'calc', toolName: 'add' }, true);
    expect(error).toMatch(/thread/i);
  });
});

describe('the thread’s own deferral', () => {
  it('"never" sends every tool, over the profile’s "always"; the thread settings form keeps it', async () => {
    expect(await chat.actions.setThreadDeferral(threadId, 'never')).toBeUndefined();
    expect(await sentTools('Hello')).toEqual(expect.arrayContaining(['mcp__calc__add', 'mcp__calc__tool-0']));
    await chat.actions.updateThreadSettings(threadId, { toolSearch: { preloadCount: 1 } });
    const thread = chat.store.getState().threads.find((t) => t.id === threadId);
    expect(thread?.toolSearch).toEqual({ deferral: 'never', preloadCount: 1 });
    await chat.actions.setThreadDeferral(threadId, undefined);
    expect(chat.store.getState().threads.find((t) => t.id === threadId)?.toolSearch).toEqual({ preloadCount: 1 });
  });
});
