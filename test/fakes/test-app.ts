// The app below the UI for tests: real storage (fake-indexeddb, real vault), the real registry, the turn runner
// with its tool index, and the fake Messages API. One setup for the store, integration and fault tests.
import { createAnthropicModel } from '../../src/agent/anthropic-model';
import { EMPTY_APP_CONFIG } from '../../src/domain/app-config';
import type { ToolSearchOverrides } from '../../src/domain/tool-search-settings';
import type { UserConfig } from '../../src/domain/user-config';
import { createRegistry, type Registry, type RegistryDeps } from '../../src/mcp/registry';
import { createLocalLocks, type Locks } from '../../src/platform/locks';
import { createToolIndex } from '../../src/search/tool-index';
import type { Storage } from '../../src/storage/storage';
import { MODEL_API_OWNER } from '../../src/storage/vault';
import { createAppStore, type AppServices, type AppState } from '../../src/stores/app-store';
import { startApp } from '../../src/stores/start-app';
import { createBackgroundSlices } from '../../src/platform/background-slices';
import { syncToolIndex } from '../../src/turns/tool-index-sync';
import { API_KEY_SLOT } from '../../src/storage/vault';
import type { TurnRunnerDeps } from '../../src/turns/turn-runner';
import { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions } from './fake-anthropic';
import { sha256Hex } from './memory-stores';
import { openTestStorage, type TestStorage } from './test-storage';

/** The origin the tests' registries send as the page's. */
export const TEST_APP_ORIGIN = 'http://127.0.0.1:5173';

/** The real registry of a profile over test storage (its vault and catalog) and Node's fetch; `overrides` replace any dependency. */
export function createStorageRegistry(
  storage: Storage,
  profileId: string,
  overrides: Partial<RegistryDeps> = {},
): Registry {
  return createRegistry({
    profileId,
    appOrigin: TEST_APP_ORIGIN,
    fetch: (input, init) => fetch(input, init),
    now: () => Date.now(),
    sha256Hex,
    secrets: storage.vault,
    catalogs: storage.catalog,
    ...overrides,
  });
}

/** Start-up services over test storage (the real registry, no app config, no model); `overrides` replace any of them. */
export function testAppServices(storage: Storage, overrides: Partial<AppServices> = {}): AppServices {
  return {
    storage,
    loadAppConfig: () => Promise.resolve({ config: EMPTY_APP_CONFIG, source: 'none' }),
    createRegistry: (profileId) => createStorageRegistry(storage, profileId),
    createModel: () => {
      throw new Error('no model call in this test');
    },
    sha256Hex,
    now: Date.now,
    ...overrides,
  };
}

/** Runs the app's start-up as the page does over test storage; `close` closes the registry it opened. */
export async function startAppOnStorage(storage: Storage): Promise<{ state: AppState; close: () => Promise<void> }> {
  const store = createAppStore();
  await startApp(store, () => Promise.resolve(testAppServices(storage)));
  return { state: store.getState(), close: async () => store.getState().registry?.close() };
}

export interface TestProfileOptions {
  /** Stored in the vault as the Anthropic API key. */
  readonly apiKey?: string;
  /** The profile's own tool-search settings. */
  readonly toolSearch?: ToolSearchOverrides;
}

/** The active profile, with the API key in the vault and the tool-search settings given. */
export async function openTestProfile(storage: Storage, options: TestProfileOptions = {}): Promise<UserConfig> {
  const { apiKey, toolSearch } = options;
  let profile = await storage.profiles.ensureActive();
  if (toolSearch)
    profile = await storage.profiles.update(profile.id, (p) => ({
      ...p,
      preferences: { ...p.preferences, toolSearch },
    }));
  if (apiKey !== undefined)
    await storage.vault.put({ profileId: profile.id, owner: MODEL_API_OWNER, slot: API_KEY_SLOT }, apiKey);
  return profile;
}

export interface TestAppOptions extends TestProfileOptions {
  /** Retries of the SDK for 429/5xx; 0 unless given, so one scripted error is one failed call. */
  readonly maxRetries?: number;
  readonly timing?: RegistryDeps['timing'];
  /** Answers servers' sampling requests (the app's sampling store); default: refused. */
  readonly sampling?: RegistryDeps['sampling'];
  readonly locks?: Locks;
  /** Open on this storage instead of a fresh one (a second "tab"); closing the app leaves it open. */
  readonly storage?: TestStorage;
  /** Options of the contract fake API (e.g. a model's context window). */
  readonly api?: FakeAnthropicOptions;
}

export interface TestApp {
  readonly opened: TestStorage;
  readonly api: FakeAnthropic;
  readonly profile: UserConfig;
  readonly registry: Registry;
  /** What the turn runner and the chat store are given, with the fake API as the model endpoint. */
  readonly deps: TurnRunnerDeps;
  /** Stops the tool index sync, closes the registry and the fake API, and the storage it opened. */
  close(): Promise<void>;
}

/** Starts the fake API and wires storage, profile, registry, tool index and turn-runner dependencies as the app does. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const [api, opened] = await Promise.all([startFakeAnthropic(options.api), options.storage ?? openTestStorage()]);
  const { storage } = opened;
  const profile = await openTestProfile(storage, options);
  const registry = createStorageRegistry(storage, profile.id, {
    ...(options.timing ? { timing: options.timing } : {}),
    ...(options.sampling ? { sampling: options.sampling } : {}),
  });
  const index = createToolIndex();
  const sync = syncToolIndex(registry, index, createBackgroundSlices());
  const deps: TurnRunnerDeps = {
    storage,
    registry,
    index,
    indexSettled: () => sync.settled(),
    profileId: profile.id,
    defaults: EMPTY_APP_CONFIG.defaults,
    createModel: (apiKey) =>
      createAnthropicModel({
        apiKey,
        baseUrl: api.url,
        fetch: (input, init) => fetch(input, init),
        maxRetries: options.maxRetries ?? 0,
      }),
    sha256Hex,
    now: () => Date.now(),
    locks: options.locks ?? createLocalLocks(),
  };
  return {
    opened,
    api,
    profile,
    registry,
    deps,
    async close() {
      sync.stop();
      await registry.close();
      await api.stop();
      if (!options.storage) opened.close();
    },
  };
}
