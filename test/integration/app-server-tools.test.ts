// A tool of a server the app provides, switched off by the person for their profile: the app as it starts (startApp
// with an app config, storage over fake-indexeddb, the real registry), the fake Messages API and a real MCP server.
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../../src/agent/anthropic-model';
import { AppConfig } from '../../src/domain/app-config';
import { createToolIndex } from '../../src/search/tool-index';
import { createAppStore, type AppState } from '../../src/stores/app-store';
import { startApp } from '../../src/stores/start-app';
import { createBackgroundSlices } from '../../src/platform/background-slices';
import { syncToolIndex } from '../../src/turns/tool-index-sync';
import { cleanupAfterEach } from '../fakes/cleanup';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { openTestProfile, testAppServices } from '../fakes/test-app';
import { openTestStorage } from '../fakes/test-storage';
import { startTestMcpServer, type TestMcpServer } from '../fixtures/test-mcp-server';

let api: FakeAnthropic;
let mcp: TestMcpServer;
const cleanup = cleanupAfterEach();

beforeAll(async () => {
  [api, mcp] = await Promise.all([startFakeAnthropic(), startTestMcpServer()]);
});

afterAll(async () => {
  await api?.stop();
  await mcp?.stop();
});

/** The deployer's config: one server, every tool sent with each call so a request shows all the model is offered. */
const appConfig = () =>
  AppConfig.parse({
    servers: [{ id: 'company', name: 'Company', url: mcp.url }],
    defaults: { toolSearch: { deferral: 'never' } },
  });

/** A browser's database: each `open` is the app starting in it again (a reload), over the same stored data. */
function browserDatabase() {
  const factory = new IDBFactory();
  const name = `app-server-tools-${crypto.randomUUID()}`;
  return {
    async open(): Promise<
      Required<Pick<AppState, 'registry' | 'serverActions' | 'servers' | 'chat' | 'chatActions'>> & {
        profileId: string;
      }
    > {
      const test = await openTestStorage({ factory, name });
      await openTestProfile(test.storage, { apiKey: 'sk-ant-app-tools' });
      const services = testAppServices(test.storage, {
        loadAppConfig: () => Promise.resolve({ config: appConfig(), source: 'file' }),
        createModel: (apiKey) =>
          createAnthropicModel({ apiKey, baseUrl: api.url, fetch: (input, init) => fetch(input, init), maxRetries: 0 }),
      });
      const store = createAppStore();
      await startApp(store, () => Promise.resolve(services));
      const { phase, registry, serverActions, servers, chat, chatActions, profile } = store.getState();
      cleanup(
        () => test.close(),
        () => registry?.close(),
      );
      expect(phase).toBe('ready');
      // The person allows every tool call they are asked about.
      chat!.subscribe((state) => state.pendingApprovals.forEach((p) => p.answer('allow-once')));
      return {
        registry: registry!,
        serverActions: serverActions!,
        servers: servers!,
        chat: chat!,
        chatActions: chatActions!,
        profileId: profile!.id,
      };
    },
  };
}

type OpenApp = Awaited<ReturnType<ReturnType<typeof browserDatabase>['open']>>;

async function threadWithCompany(app: OpenApp): Promise<void> {
  await app.chatActions.newThread();
  await app.chatActions.setThreadServers(app.chat.getState().activeThreadId!, ['company']);
}

const toolCalls = () => mcp.requests.filter((r) => r.rpcMethod === 'tools/call').length;
const lastToolResult = (app: OpenApp) =>
  JSON.stringify(
    app.chat
      .getState()
      .messages.filter((m) => m.role === 'user')
      .at(-1)?.blocks,
  );

describe('a tool of an app server the person switched off', () => {
  it('is not offered to the model, not searchable, not mentionable, and a call to it is refused; switched on again it works', async () => {
    const app = await browserDatabase().open();
    const index = createToolIndex();
    const sync = syncToolIndex(app.registry, index, createBackgroundSlices());
    cleanup(() => sync.stop());
    await app.registry.connect('company');
    await threadWithCompany(app);
    api.script({ text: 'Ready.' });
    await app.chatActions.send('What can you do?');
    expect(api.requests.at(-1)?.toolNames).toContain('mcp__company__add');

    expect(await app.serverActions.changeTool('company', 'add', { enabled: false })).toBeUndefined();
    expect(
      app.servers
        .getState()
        .servers.find((s) => s.id === 'company')
        ?.tools.find((t) => t.name === 'add'),
    ).toMatchObject({ isEnabled: false });
    await sync.settled();
    expect(index.tools(new Set(['company'])).map((t) => t.toolName)).not.toContain('add');
    expect(app.chatActions.mentionOptions('add').map((o) => o.label)).not.toContain('add');
    // The same refusal as a user server's disabled tool.
    expect((await app.registry.callTool('company', 'add', { a: 1, b: 2 })).failure).toEqual({
      kind: 'tool-disabled',
      message: 'The tool "add" is disabled.',
    });

    const callsBefore = toolCalls();
    api.script({ toolUses: [{ name: 'mcp__company__add', input: { a: 1, b: 2 } }] }, { text: 'I could not add.' });
    await app.chatActions.send('Add 1 and 2');
    expect(api.requests.at(-2)?.toolNames).not.toContain('mcp__company__add');
    expect(api.requests.at(-2)?.toolNames).toContain('mcp__company__slow');
    expect(toolCalls()).toBe(callsBefore);

    expect(await app.serverActions.changeTool('company', 'add', { enabled: true })).toBeUndefined();
    await sync.settled();
    expect(index.tools(new Set(['company'])).map((t) => t.toolName)).toContain('add');
    expect(app.chatActions.mentionOptions('add').map((o) => o.label)).toContain('add');
    api.script({ toolUses: [{ name: 'mcp__company__add', input: { a: 1, b: 2 } }] }, { text: '1+2 is 3.' });
    await app.chatActions.send('Add 1 and 2 again');
    expect(api.requests.at(-2)?.toolNames).toContain('mcp__company__add');
    expect(toolCalls()).toBe(callsBefore + 1);
    expect(lastToolResult(app)).toContain('1+2=3');
  });

  it("stays off after the app starts again over the same storage, in a new thread too, and the deployer's config is untouched", async () => {
    const database = browserDatabase();
    const first = await database.open();
    await first.registry.connect('company');
    await first.serverActions.changeTool('company', 'add', { enabled: false });
    await first.serverActions.changeTool('company', 'slow', { description: 'Waits (in my words).' });
    await first.registry.close();

    const again = await database.open();
    expect(again.registry.get('company')?.config.toolOverrides).toEqual({});
    expect(
      again.servers
        .getState()
        .servers.find((s) => s.id === 'company')
        ?.tools.filter((t) => !t.isEnabled)
        .map((t) => t.name),
    ).toEqual(['add']);
    expect((await again.registry.callTool('company', 'add', { a: 1, b: 2 })).failure?.kind).toBe('tool-disabled');
    await threadWithCompany(again);
    api.script({ text: 'Ready.' });
    await again.chatActions.send('What can you do?');
    const request = api.requests.at(-1)!;
    expect(request.toolNames).not.toContain('mcp__company__add');
    expect(request.body.tools?.find((t) => 'name' in t && t.name === 'mcp__company__slow')).toMatchObject({
      description: 'Waits (in my words).',
    });
  });
});
