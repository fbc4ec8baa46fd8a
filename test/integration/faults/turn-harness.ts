// The app below the UI for fault tests: real storage (fake-indexeddb), the real registry and chat store, the fake API.
import { createAnthropicModel } from '../../../src/agent/anthropic-model';
import { EMPTY_APP_CONFIG } from '../../../src/domain/app-config';
import { BEARER_SLOT } from '../../../src/domain/server-config';
import { createRegistry, type Registry, type RegistryDeps } from '../../../src/mcp/registry';
import { createLocalLocks, type Locks } from '../../../src/platform/locks';
import { createToolIndex } from '../../../src/search/tool-index';
import { MODEL_API_OWNER } from '../../../src/storage/vault';
import { createChat } from '../../../src/stores/chat-store';
import { syncToolIndex } from '../../../src/stores/thread-tools';
import { API_KEY_SLOT, type TurnRunnerDeps } from '../../../src/stores/turn-runner';
import { startFakeAnthropic, type FakeAnthropic } from '../../fakes/fake-anthropic';
import { sha256Hex } from '../../fakes/memory-stores';
import { openTestStorage, type TestStorage } from '../../fakes/test-storage';

export const API_KEY = 'sk-ant-faults-test-key';

export interface FaultApp {
  readonly opened: TestStorage;
  readonly api: FakeAnthropic;
  readonly registry: Registry;
  readonly deps: TurnRunnerDeps;
  readonly chat: ReturnType<typeof createChat>;
  readonly profileId: string;
  /** Adds a server as the servers panel does: registered, and its bearer token (if any) in the vault. */
  addServer(id: string, url: string, token?: string): Promise<void>;
  close(): Promise<void>;
}

export interface FaultAppOptions {
  /** Retries of the SDK for 429/5xx (the app's default is 2; tests of the message a person sees use 0). */
  readonly maxRetries?: number;
  readonly timing?: RegistryDeps['timing'];
  readonly locks?: Locks;
  /** Open on this storage instead of a fresh one (a second "tab"). */
  readonly storage?: TestStorage;
}

/** Starts the fake API and wires storage, registry, tool index, turn runner and chat store like the app does. */
export async function startFaultApp(options: FaultAppOptions = {}): Promise<FaultApp> {
  const [api, opened] = await Promise.all([startFakeAnthropic(), options.storage ?? openTestStorage()]);
  const { storage } = opened;
  const profile = await storage.profiles.ensureActive();
  await storage.vault.put({ profileId: profile.id, owner: MODEL_API_OWNER, slot: API_KEY_SLOT }, API_KEY);
  const registry = createRegistry({
    profileId: profile.id,
    appOrigin: 'http://127.0.0.1:5173',
    fetch: (input, init) => fetch(input, init),
    now: () => Date.now(),
    sha256Hex,
    secrets: storage.vault,
    catalogs: storage.catalog,
    ...(options.timing ? { timing: options.timing } : {}),
  });
  const index = createToolIndex();
  const stopSync = syncToolIndex(registry, index);
  const deps: TurnRunnerDeps = {
    storage,
    registry,
    index,
    profileId: profile.id,
    defaults: EMPTY_APP_CONFIG.defaults,
    createModel: (apiKey) => createAnthropicModel({ apiKey, baseUrl: api.url, fetch: (input, init) => fetch(input, init), maxRetries: options.maxRetries ?? 0 }),
    sha256Hex,
    now: () => Date.now(),
    locks: options.locks ?? createLocalLocks(),
  };
  const chat = createChat(deps);
  return {
    opened,
    api,
    registry,
    deps,
    chat,
    profileId: profile.id,
    async addServer(id, url, token) {
      await registry.register({ id, name: id, url, ...(token ? { auth: { kind: 'bearer' as const } } : {}) }, 'user');
      await storage.profiles.saveServer(profile.id, { id, name: id, url, ...(token ? { auth: { kind: 'bearer' as const } } : {}) });
      if (token) await storage.vault.put({ profileId: profile.id, owner: id, slot: BEARER_SLOT }, token);
    },
    async close() {
      chat.dispose();
      stopSync();
      await registry.close();
      await api.stop();
      if (!options.storage) opened.close();
    },
  };
}

/** The thread's messages as "role:status" plus their text, to compare what is kept. */
export async function storedMessages(app: FaultApp, threadId: string): Promise<{ role: string; status: string; text: string; error?: string }[]> {
  const { items } = await app.opened.storage.messages.list(threadId);
  return items.map((m) => ({
    role: m.role,
    status: m.status,
    text: m.blocks.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? b.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : `[${b.type}]`)).join(''),
    ...(m.error ? { error: m.error } : {}),
  }));
}
