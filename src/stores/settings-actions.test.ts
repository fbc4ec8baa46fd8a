import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../test/fakes/fake-agent-ports';
import { sha256Hex } from '../../test/fakes/memory-stores';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import { startTestMcpServer, type TestMcpServer } from '../../test/fixtures/test-mcp-server';
import { AppConfig } from '../domain/app-config';
import { createRegistry, type Registry } from '../mcp/registry';
import { createToolIndex } from '../search/tool-index';
import { MODEL_API_OWNER } from '../storage/vault';
import { createSettingsActions, type SettingsActions } from './settings-actions';
import { KEY_ELSEWHERE, MISSING_API_KEY } from './settings';
import { createBackgroundSlices } from '../platform/background-slices';
import { syncToolIndex, type ToolIndexSync } from '../turns/tool-index-sync';
import { API_KEY_SLOT } from '../storage/vault';
import { sendMessage, type TurnRunnerDeps } from '../turns/turn-runner';

let mcp: TestMcpServer;
let opened: TestStorage;
let registry: Registry;
let actions: SettingsActions;
let profileId: string;
let model: ScriptedModel;
let deps: TurnRunnerDeps;
let sync: ToolIndexSync;

// The deployer's defaults: auto deferral (8 tools are few, so all are sent) and 3 preloaded tools.
const defaults = AppConfig.parse({ defaults: { toolSearch: { deferral: 'auto', preloadCount: 3 } } }).defaults;
const form = { apiKey: '', baseUrl: 'https://api.anthropic.com', model: 'claude-sonnet-5' };
const toolSearch = { mode: 'client', strategy: 'bm25', deferral: 'always', preloadCount: '0', loadedToolCap: '20' };

beforeEach(async () => {
  [mcp, opened] = await Promise.all([startTestMcpServer({ toolCount: 5 }), openTestStorage()]);
  const { storage } = opened;
  profileId = (await storage.profiles.ensureActive()).id;
  await storage.vault.put({ profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT }, 'sk-ant-settings-test');
  registry = createRegistry({
    profileId,
    appOrigin: 'http://127.0.0.1:5173',
    fetch: (i, init) => fetch(i, init),
    now: Date.now,
    sha256Hex,
    secrets: storage.vault,
    catalogs: storage.catalog,
  });
  await registry.register({ id: 'gen', name: 'Generated', url: mcp.url }, 'user');
  const index = createToolIndex();
  sync = syncToolIndex(registry, index, createBackgroundSlices());
  model = new ScriptedModel([]);
  deps = {
    storage,
    registry,
    index,
    indexSettled: () => sync.settled(),
    profileId,
    defaults,
    createModel: () => model,
    sha256Hex,
    now: Date.now,
  };
  actions = createSettingsActions({ ...deps, leave: () => registry.close(), onProfile: () => undefined }).actions;
});

afterEach(async () => {
  sync.stop();
  await registry.close();
  opened.close();
  await mcp.stop();
});

/** Runs one turn in a fresh thread with the server enabled; returns the tool names the model call carried. */
async function toolsOfNextTurn(text: string): Promise<string[]> {
  const thread = await opened.storage.threads.create(profileId, { enabledServerIds: ['gen'] });
  model = new ScriptedModel([{ blocks: [{ type: 'text', text: 'ok' }] }]);
  await sendMessage(deps, thread.id, text, {
    askApproval: () => Promise.resolve('deny'),
    signal: new AbortController().signal,
  });
  return model.requests[0]!.tools.map((t) => t.name).sort();
}

describe('tool-search settings in Settings', () => {
  it('a saved setting takes effect on the next turn: app defaults < profile overrides', async () => {
    const first = await toolsOfNextTurn('run tool-3');
    const everyTool = registry
      .tools(['gen'])
      .map((t) => t.modelName)
      .sort();
    expect(everyTool).toHaveLength(8); // tool-0 … tool-4 and the fixture's own three
    expect(first).toEqual(everyTool);

    expect(await actions.save({ ...form, toolSearch })).toEqual({});
    expect(await toolsOfNextTurn('run tool-3')).toEqual(['tool_search']);

    expect(await actions.save({ ...form, toolSearch: { ...toolSearch, preloadCount: '1' } })).toEqual({});
    expect(await toolsOfNextTurn('run tool-3')).toHaveLength(2);

    expect(await actions.resetToolSearch()).toBeUndefined();
    expect(await toolsOfNextTurn('run tool-3')).toEqual(everyTool);
  });

  it('shows the effective values with the app defaults, and whether the profile overrides them', async () => {
    expect(await actions.load()).toMatchObject({
      toolSearch: defaults.toolSearch,
      toolSearchDefaults: defaults.toolSearch,
      hasToolSearchOverrides: false,
      theme: 'system',
    });
    await actions.save({ ...form, toolSearch: { ...toolSearch, strategy: 'regex', loadedToolCap: '50' } });
    expect(await actions.load()).toMatchObject({
      toolSearch: { mode: 'client', strategy: 'regex', deferral: 'always', preloadCount: 0, loadedToolCap: 50 },
      hasToolSearchOverrides: true,
    });
  });

  it('a Save that leaves tool search as shown (a new API key, say) keeps following the app defaults; only changed fields are stored', async () => {
    const shown = (await actions.load()).toolSearch;
    const asTyped = { ...shown, preloadCount: String(shown.preloadCount), loadedToolCap: String(shown.loadedToolCap) };
    expect(await actions.save({ ...form, apiKey: 'sk-ant-new-key', toolSearch: asTyped })).toEqual({});
    expect(await actions.load()).toMatchObject({ hasApiKey: true, hasToolSearchOverrides: false });
    expect((await opened.storage.profiles.get(profileId))!.preferences.toolSearch).toEqual({});
    expect(await actions.save({ ...form, toolSearch: { ...asTyped, strategy: 'regex' } })).toEqual({});
    expect((await opened.storage.profiles.get(profileId))!.preferences.toolSearch).toEqual({ strategy: 'regex' });
  });

  it('an API key that cannot be sent in a request header (an invisible character pasted with it) is refused next to its field', async () => {
    expect(await actions.save({ ...form, apiKey: 'sk-ant-new\u200bkey' })).toEqual({
      apiKey: 'API key may contain only printable Latin-1 characters',
    });
    expect(await actions.save({ ...form, apiKey: 'sk-ant-new\nkey' })).toEqual({ apiKey: 'API key must be one line' });
    expect(await opened.storage.vault.get({ profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT })).toBe(
      'sk-ant-settings-test',
    );
  });

  it('a Save with no key typed on a profile without a key is refused next to the key field, and nothing is saved', async () => {
    await opened.storage.vault.delete({ profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT });
    expect(await actions.save({ ...form, apiKey: '   ', baseUrl: 'https://example.test' })).toEqual({
      apiKey: MISSING_API_KEY,
    });
    expect(await actions.load()).toMatchObject({ hasApiKey: false });
    expect((await opened.storage.profiles.get(profileId))!.preferences.baseUrl).toBeUndefined();
    // Other wrong fields are reported with it, so one Save shows everything to fix.
    expect(await actions.save({ ...form, baseUrl: 'not a url' })).toEqual({
      apiKey: MISSING_API_KEY,
      baseUrl: 'Base URL must be an http(s) URL',
    });
    expect(await actions.save({ ...form, apiKey: 'sk-ant-typed' })).toEqual({});
    expect(await actions.load()).toMatchObject({ hasApiKey: true });
    // With a key stored, an empty field keeps it.
    expect(await actions.save({ ...form, model: 'claude-haiku-5' })).toEqual({});
    expect(await opened.storage.vault.get({ profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT })).toBe(
      'sk-ant-typed',
    );
  });

  it('out-of-range or non-numeric numbers come back as field errors, and nothing is saved', async () => {
    const errors = await actions.save({
      ...form,
      baseUrl: 'https://example.test',
      toolSearch: { ...toolSearch, preloadCount: '21', loadedToolCap: 'lots' },
    });
    expect(errors).toEqual({
      apiKey: KEY_ELSEWHERE, // The stored key does not go to another origin's base URL untyped.
      'toolSearch.preloadCount': 'Preload count must be a whole number from 0 to 20',
      'toolSearch.loadedToolCap': 'Loaded-tool cap must be a whole number from 1 to 200',
    });
    expect(
      await actions.save({ ...form, toolSearch: { ...toolSearch, preloadCount: '2.5', loadedToolCap: '0' } }),
    ).toEqual({
      'toolSearch.preloadCount': 'Preload count must be a whole number from 0 to 20',
      'toolSearch.loadedToolCap': 'Loaded-tool cap must be a whole number from 1 to 200',
    });
    const prefs = (await opened.storage.profiles.get(profileId))!.preferences;
    expect(prefs.baseUrl).toBeUndefined();
    expect(prefs.toolSearch).toEqual({});
  });

  it('keeps the saved key for another path at its origin, but asks for it again for a base URL at another origin', async () => {
    expect(await actions.save({ ...form, apiKey: 'sk-ant-first' })).toEqual({});
    expect(await actions.save({ ...form, baseUrl: 'https://api.anthropic.com/v1-proxy' })).toEqual({});
    expect(await actions.save({ ...form, baseUrl: 'https://cheap-claude.example' })).toEqual({ apiKey: KEY_ELSEWHERE });
    expect((await opened.storage.profiles.get(profileId))!.preferences.baseUrl).toBe(
      'https://api.anthropic.com/v1-proxy',
    );
    expect(await actions.save({ ...form, baseUrl: 'https://cheap-claude.example', apiKey: 'sk-ant-other' })).toEqual(
      {},
    );
    expect(await opened.storage.vault.get({ profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT })).toBe(
      'sk-ant-other',
    );
  });

  it('reads numbers as typed (not "0x10" or "1e1"), and a number field left blank follows the app default', async () => {
    const wrong = 'Preload count must be a whole number from 0 to 20';
    for (const typed of ['0x10', '1e1', '+5'])
      expect(await actions.save({ ...form, toolSearch: { ...toolSearch, preloadCount: typed } })).toEqual({
        'toolSearch.preloadCount': wrong,
      });
    expect(
      await actions.save({ ...form, toolSearch: { ...toolSearch, preloadCount: '7', loadedToolCap: '30' } }),
    ).toEqual({});
    expect((await opened.storage.profiles.get(profileId))!.preferences.toolSearch).toMatchObject({
      preloadCount: 7,
      loadedToolCap: 30,
    });
    expect(
      await actions.save({ ...form, toolSearch: { ...toolSearch, preloadCount: ' ', loadedToolCap: '' } }),
    ).toEqual({});
    const stored = (await opened.storage.profiles.get(profileId))!.preferences.toolSearch;
    expect(stored).not.toHaveProperty('preloadCount');
    expect(stored).not.toHaveProperty('loadedToolCap');
    expect((await actions.load()).toolSearch).toMatchObject({ preloadCount: 3, loadedToolCap: 20 });
  });

  it('keeps the theme in the profile and reports the change', async () => {
    const seen: (string | undefined)[] = [];
    const bound = createSettingsActions({
      ...deps,
      leave: () => Promise.resolve(),
      onProfile: (p) => seen.push(p?.preferences.theme),
    }).actions;
    expect(await bound.profiles.setTheme('dark')).toBeUndefined();
    expect(seen).toEqual(['dark']);
    expect((await bound.load()).theme).toBe('dark');
  });

  it('follows the open profile when another tab changes its theme or deletes it', async () => {
    const name = `tabs-${Date.now()}`;
    const first = await openTestStorage({ name, channelName: name });
    const second = await openTestStorage({ name, channelName: name, factory: first.factory });
    try {
      const open = await first.storage.profiles.ensureActive();
      await first.storage.profiles.create({ name: 'Other' });
      const seen: (string | undefined)[] = [];
      const { dispose } = createSettingsActions({
        ...deps,
        storage: first.storage,
        profileId: open.id,
        leave: () => Promise.resolve(),
        onProfile: (p) => seen.push(p?.preferences.theme),
      });
      await second.storage.profiles.update(open.id, (p) => ({
        ...p,
        preferences: { ...p.preferences, theme: 'dark' },
      }));
      await expect.poll(() => seen).toEqual(['dark']);
      await second.storage.profiles.delete(open.id);
      await expect.poll(() => seen).toEqual(['dark', undefined]); // the app then says the profile is gone
      dispose();
    } finally {
      first.close();
      second.close();
    }
  });
});
