// Trial polish: the first server a person adds is on in new threads, and in the open thread when it has none on.
import { describe, expect, it } from 'vitest';
import { EMPTY_SERVER_FORM } from '../../src/stores/servers-store';
import { cleanupAfterEach } from '../fakes/cleanup';
import { startAppOnStorage } from '../fakes/test-app';
import { openTestStorage } from '../fakes/test-storage';
import { startTestMcpServer } from '../fixtures/test-mcp-server';

const cleanup = cleanupAfterEach();

async function startOnFreshStorage() {
  const test = await openTestStorage();
  const { state, close } = await startAppOnStorage(test.storage);
  cleanup(close, () => test.close());
  const chat = state.chat!;
  const openThread = () => chat.getState().threads.find((t) => t.id === chat.getState().activeThreadId);
  return { test, state, chat, actions: state.chatActions!, servers: state.servers!, openThread };
}

async function mcpServer() {
  const server = await startTestMcpServer();
  cleanup(() => server.stop());
  return server;
}

describe('the first server a person adds', () => {
  it('is on in the open thread that has none on, and in the next new thread; the manager says so', async () => {
    const [calc, notes] = await Promise.all([mcpServer(), mcpServer()]);
    const { state, actions, servers, openThread } = await startOnFreshStorage();
    await actions.newThread();
    expect(openThread()?.enabledServerIds).toEqual([]);

    expect(await state.serverActions!.add({ ...EMPTY_SERVER_FORM, name: 'Calc', url: calc.url })).toBeUndefined();
    expect(openThread()?.enabledServerIds).toEqual(['calc']);
    expect(servers.getState().defaultIds).toEqual(['calc']);
    expect(servers.getState().notices.calc?.text).toBe(
      'Added. As your first server it is on in new threads and in the open thread.',
    );
    await actions.newThread();
    expect(openThread()?.enabledServerIds).toEqual(['calc']);

    // The person's own choices stand from then on: a second server is on nowhere until switched on.
    await actions.setThreadServers(openThread()!.id, []);
    expect(await state.serverActions!.add({ ...EMPTY_SERVER_FORM, name: 'Notes', url: notes.url })).toBeUndefined();
    expect(openThread()?.enabledServerIds).toEqual([]);
    expect(servers.getState().defaultIds).toEqual(['calc']);
    expect(servers.getState().notices.notes).toBeUndefined();
  });

  it('a server added after one was removed is not put on anywhere (it takes no place of the removed one)', async () => {
    const [first, second] = await Promise.all([mcpServer(), mcpServer()]);
    const { state, actions, servers, openThread } = await startOnFreshStorage();
    expect(await state.serverActions!.add({ ...EMPTY_SERVER_FORM, name: 'Files', url: first.url })).toBeUndefined();
    await state.serverActions!.remove('files');
    await actions.newThread();
    expect(await state.serverActions!.add({ ...EMPTY_SERVER_FORM, name: 'Files', url: second.url })).toBeUndefined();
    const added = servers.getState().servers.find((s) => s.name === 'Files')!;
    expect(added.id).not.toBe('files');
    expect(servers.getState().defaultIds).toEqual([]);
    expect(openThread()?.enabledServerIds).toEqual([]);
  });
});
