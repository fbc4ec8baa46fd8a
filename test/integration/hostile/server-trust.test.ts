// Issue #15 item 2: "Always allow" given to a server must not pass to a different server that takes its id, by any
// route (remove and add again, edit the URL, remove and import). Two real MCP servers on two 127.0.0.1 ports are two origins.
import { describe, expect, it } from 'vitest';
import type { Approval } from '../../../src/domain/trace';
import { listAlwaysAllowed, revokeAlwaysAllowed } from '../../../src/stores/always-allowed';
import { createChat } from '../../../src/stores/chat-store';
import { importConfiguration } from '../../../src/stores/config-transfer';
import {
  bindServerActions,
  createServersStore,
  EMPTY_SERVER_FORM,
  formFromConfig,
  type ServerActions,
} from '../../../src/stores/servers-store';
import { sendMessage } from '../../../src/turns/turn-runner';
import { cleanupAfterEach } from '../../fakes/cleanup';
import { startTestApp, type TestApp } from '../../fakes/test-app';
import { startTestMcpServer, type TestMcpServer } from '../../fixtures/test-mcp-server';

const cleanup = cleanupAfterEach();

async function filesServer(): Promise<TestMcpServer> {
  const server = await startTestMcpServer();
  server.addTool('delete_file', 'Deletes a file');
  cleanup(() => server.stop());
  return server;
}

const deleteCalls = (server: TestMcpServer) => server.requests.filter((r) => r.rpcMethod === 'tools/call').length;

async function setup() {
  const [first, second, app] = await Promise.all([
    filesServer(),
    filesServer(),
    startTestApp({ apiKey: 'sk-ant-test-key', toolSearch: { deferral: 'never' } }),
  ]);
  cleanup(() => app.close());
  const store = createServersStore(app.registry);
  cleanup(() => store.dispose());
  const actions = bindServerActions(store, {
    registry: app.registry,
    storage: app.opened.storage,
    profileId: app.profile.id,
  });
  return { first, second, app, actions };
}

/** One turn in which the model calls `modelName`; the person answers `answer` when asked. Returns what was asked. */
async function callTool(app: TestApp, threadId: string, modelName: string, answer: Approval): Promise<string[]> {
  const asked: string[] = [];
  app.api.script({ toolUses: [{ name: modelName, input: { path: 'notes.txt' } }] }, { text: 'Done.' });
  await sendMessage(app.deps, threadId, 'Delete notes.txt', {
    askApproval: async (request) => {
      asked.push(`${request.tool.modelName} at ${request.tool.trust.origin}`);
      return answer;
    },
    signal: new AbortController().signal,
  });
  return asked;
}

/** "Files" at the first origin, always allowed to delete files in a thread. */
async function alwaysAllowedAtFirstOrigin(app: TestApp, actions: ServerActions, first: TestMcpServer) {
  expect(await actions.add({ ...EMPTY_SERVER_FORM, name: 'Files', url: first.url })).toBeUndefined();
  const thread = await app.opened.storage.threads.create(app.profile.id, { enabledServerIds: ['files'] });
  const asked = await callTool(app, thread.id, 'mcp__files__delete_file', 'allow-always');
  expect(asked).toEqual([`mcp__files__delete_file at ${new URL(first.url).origin}`]);
  expect(deleteCalls(first)).toBe(1);
  // Allowed always: the next call runs without asking.
  expect(await callTool(app, thread.id, 'mcp__files__delete_file', 'deny')).toEqual([]);
  expect(deleteCalls(first)).toBe(2);
  return thread.id;
}

/** The server now at the second origin is off in the old thread; switched on again there, its tool asks first. */
async function secondOriginAsks(app: TestApp, threadId: string, serverId: string, second: TestMcpServer) {
  const { storage } = app.opened;
  expect((await storage.threads.get(threadId))?.enabledServerIds).toEqual([]);
  expect((await storage.profiles.get(app.profile.id))?.alwaysAllow).toEqual({});
  await storage.threads.setEnabledServers(threadId, [serverId]);
  const callsBefore = deleteCalls(second);
  const asked = await callTool(app, threadId, `mcp__${serverId}__delete_file`, 'deny');
  expect(asked).toEqual([`mcp__${serverId}__delete_file at ${new URL(second.url).origin}`]);
  expect(deleteCalls(second)).toBe(callsBefore); // Denied: never called.
}

describe('trust given to a server does not pass to another origin that reuses its id', () => {
  it('(a) removed, and a new "Files" added at another origin: a fresh id, off in the old thread, asks again', async () => {
    const { first, second, app, actions } = await setup();
    const threadId = await alwaysAllowedAtFirstOrigin(app, actions, first);
    await actions.remove('files');
    expect(await actions.add({ ...EMPTY_SERVER_FORM, name: 'Files', url: second.url })).toBeUndefined();
    const added = app.registry.list().find((s) => s.config.name === 'Files')!.config;
    expect(added.id).not.toBe('files');
    await secondOriginAsks(app, threadId, added.id, second);
  });

  it('(b) its URL edited to another origin: off in the old thread, its approvals gone, asks again', async () => {
    const { first, second, app, actions } = await setup();
    const threadId = await alwaysAllowedAtFirstOrigin(app, actions, first);
    const config = app.registry.get('files')!.config;
    expect(await actions.update('files', { ...formFromConfig(config), url: second.url })).toBeUndefined();
    await secondOriginAsks(app, threadId, 'files', second);
  });

  it('(c) removed, and a config naming id "files" at another origin imported: a fresh id, off, asks again', async () => {
    const { first, second, app, actions } = await setup();
    const threadId = await alwaysAllowedAtFirstOrigin(app, actions, first);
    await actions.remove('files');
    const file = {
      format: 'mcp-agent-config',
      version: 1,
      exportedAt: new Date().toISOString(),
      preferences: {},
      servers: [{ id: 'files', name: 'Files', url: second.url }],
      defaultServerIds: [],
    };
    const transfer = { storage: app.opened.storage, registry: app.registry, profileId: app.profile.id, now: Date.now };
    expect(await importConfiguration(transfer, JSON.stringify(file))).toMatchObject({ ok: true, rejected: [] });
    const imported = app.registry.list().find((s) => s.config.name === 'Files')!.config;
    expect(imported.id).not.toBe('files');
    await secondOriginAsks(app, threadId, imported.id, second);
  });

  it('a server removed and added again at the same origin starts without its old approvals or thread places', async () => {
    const { first, app, actions } = await setup();
    const threadId = await alwaysAllowedAtFirstOrigin(app, actions, first);
    await actions.remove('files');
    expect(await actions.add({ ...EMPTY_SERVER_FORM, name: 'Files', url: first.url })).toBeUndefined();
    const added = app.registry.list().find((s) => s.config.name === 'Files')!.config;
    await secondOriginAsks(app, threadId, added.id, first);
  });

  it("in this tab, the chat's threads and Settings' Always allowed list follow at once; Revoke makes the tool ask", async () => {
    const { first, second, app, actions } = await setup();
    const chat = createChat(app.deps);
    cleanup(() => chat.dispose());
    const threadId = await alwaysAllowedAtFirstOrigin(app, actions, first);
    await chat.actions.refreshThreads();
    const listDeps = { storage: app.opened.storage, registry: app.registry, profileId: app.profile.id };
    expect(await listAlwaysAllowed(listDeps)).toEqual([
      {
        key: 'files/delete_file',
        toolName: 'delete_file',
        serverName: 'Files',
        origin: new URL(first.url).origin,
        authKind: 'none',
        isInert: false,
      },
    ]);
    expect(await revokeAlwaysAllowed(listDeps, 'files/delete_file')).toBeUndefined();
    expect(await listAlwaysAllowed(listDeps)).toEqual([]);
    expect(await callTool(app, threadId, 'mcp__files__delete_file', 'allow-thread')).toHaveLength(1);

    const enabledInChat = () => chat.store.getState().threads.find((t) => t.id === threadId)?.enabledServerIds;
    expect(enabledInChat()).toEqual(['files']);
    const config = app.registry.get('files')!.config;
    expect(await actions.update('files', { ...formFromConfig(config), url: second.url })).toBeUndefined();
    await expect.poll(enabledInChat).toEqual([]);
    expect((await app.opened.storage.threads.get(threadId))?.approvals).toEqual({});
  });

  it('a call approved for one origin is not sent to another the server moved to while the card waited', async () => {
    const { first, second, app, actions } = await setup();
    expect(await actions.add({ ...EMPTY_SERVER_FORM, name: 'Files', url: first.url })).toBeUndefined();
    const thread = await app.opened.storage.threads.create(app.profile.id, { enabledServerIds: ['files'] });
    app.api.script({ toolUses: [{ name: 'mcp__files__delete_file', input: { path: 'a' } }] }, { text: 'Done.' });
    await sendMessage(app.deps, thread.id, 'Delete a', {
      askApproval: async () => {
        const config = app.registry.get('files')!.config;
        expect(await actions.update('files', { ...formFromConfig(config), url: second.url })).toBeUndefined();
        return 'allow-once';
      },
      signal: new AbortController().signal,
      // The thread as the tab saw it when the card was shown: "files" still on.
      enabledServerIds: () => ['files'],
    });
    expect(deleteCalls(first)).toBe(0);
    expect(deleteCalls(second)).toBe(0);
    expect(JSON.stringify(app.api.requests.at(-1)?.body.messages)).toContain('moved to another address');
  });
});
