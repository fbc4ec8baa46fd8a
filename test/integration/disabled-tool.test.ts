// A tool switched off in the servers manager: the model is never offered it, and a call to it never reaches the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../../src/agent/anthropic-model';
import { EMPTY_APP_CONFIG } from '../../src/domain/app-config';
import { createRegistry, type Registry } from '../../src/mcp/registry';
import { createToolIndex } from '../../src/search/tool-index';
import { bindServerActions, createServersStore, EMPTY_SERVER_FORM, type ServerActions } from '../../src/stores/servers-store';
import { syncToolIndex } from '../../src/stores/thread-tools';
import { API_KEY_SLOT, sendMessage, type TurnRunnerDeps } from '../../src/stores/turn-runner';
import { MODEL_API_OWNER } from '../../src/storage/vault';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { sha256Hex } from '../fakes/memory-stores';
import { openTestStorage, type TestStorage } from '../fakes/test-storage';
import { startTestMcpServer, type TestMcpServer } from '../fixtures/test-mcp-server';

let server: TestMcpServer;
let api: FakeAnthropic;
let opened: TestStorage;
let registry: Registry;
let actions: ServerActions;
let deps: TurnRunnerDeps;
let stopSync: () => void;

beforeAll(async () => {
  [server, api, opened] = await Promise.all([startTestMcpServer(), startFakeAnthropic(), openTestStorage()]);
  const { storage } = opened;
  const profile = await storage.profiles.ensureActive();
  // Send every tool with each call, so the request shows exactly what the model is offered.
  await storage.profiles.update(profile.id, (p) => ({ ...p, preferences: { ...p.preferences, toolSearch: { deferral: 'never' } } }));
  await storage.vault.put({ profileId: profile.id, owner: MODEL_API_OWNER, slot: API_KEY_SLOT }, 'sk-ant-test-key');
  registry = createRegistry({ profileId: profile.id, appOrigin: 'http://127.0.0.1:5173', fetch: (i, init) => fetch(i, init), now: () => Date.now(), sha256Hex, secrets: storage.vault, catalogs: storage.catalog });
  const index = createToolIndex();
  stopSync = syncToolIndex(registry, index);
  actions = bindServerActions(createServersStore(registry), { registry, storage, profileId: profile.id });
  await actions.add({ ...EMPTY_SERVER_FORM, name: 'Calc', url: server.url });
  deps = {
    storage,
    registry,
    index,
    profileId: profile.id,
    defaults: EMPTY_APP_CONFIG.defaults,
    createModel: (apiKey) => createAnthropicModel({ apiKey, baseUrl: api.url, fetch: (input, init) => fetch(input, init), maxRetries: 0 }),
    sha256Hex,
    now: () => Date.now(),
  };
});

afterAll(async () => {
  stopSync?.();
  await registry?.close();
  opened?.close();
  await api?.stop();
  await server?.stop();
});

describe('a tool switched off in the servers manager', () => {
  it('is not offered to the model, and a call the model makes anyway never reaches the server', async () => {
    const thread = await opened.storage.threads.create(deps.profileId, { title: 'Sums', enabledServerIds: ['calc'] });
    const turn = (text: string) => sendMessage(deps, thread.id, text, { askApproval: async () => 'allow-once', signal: new AbortController().signal });

    api.script({ text: 'Ready.' });
    await turn('What can you do?');
    expect(api.requests.at(-1)?.toolNames).toContain('mcp__calc__add');

    await actions.changeTool('calc', 'add', { enabled: false });
    await actions.changeTool('calc', 'slow', { description: 'Waits a while (my words).' });
    api.script({ toolUses: [{ name: 'mcp__calc__add', input: { a: 1, b: 2 } }] }, { text: 'I could not add.' });
    await turn('Add 1 and 2');
    const offered = api.requests.at(-2)!;
    expect(offered.toolNames).not.toContain('mcp__calc__add');
    expect(offered.body.tools?.find((t) => 'name' in t && t.name === 'mcp__calc__slow')).toMatchObject({ description: 'Waits a while (my words).' });
    expect(server.requests.filter((r) => r.rpcMethod === 'tools/call')).toEqual([]);
    expect(JSON.stringify(api.requests.at(-1)?.body.messages)).toContain('There is no tool named mcp__calc__add');
  });
});
