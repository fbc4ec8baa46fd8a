import { createStore, type StoreApi } from 'zustand/vanilla';
import { describeError, type AppError } from '../domain/errors';
import type { ServerConfig } from '../domain/server-config';
import type { UserConfig } from '../domain/user-config';
import type { ModelPort } from '../agent/model-port';
import type { Registry } from '../mcp/registry';
import type { Locks } from '../platform/locks';
import { createToolIndex } from '../search/tool-index';
import { createChat, type ChatActions, type ChatStore } from './chat-store';
import { createSettingsActions, type SettingsActions } from './settings-actions';
import { followServerChanges } from './server-sync';
import { syncToolIndex } from './thread-tools';
import type { AppConfigLoad } from '../storage/app-config-source';
import type { Storage } from '../storage/storage';
import { bindServerActions, createServersStore, type ServerActions, type ServersStore } from './servers-store';

/** What start-up needs from the composition root. */
export interface AppServices {
  readonly storage: Storage;
  readonly loadAppConfig: () => Promise<AppConfigLoad>;
  /** The MCP registry of one profile (credentials and catalogs are per profile). */
  readonly createRegistry: (profileId: string, oauth: AppConfigLoad['config']['oauth']) => Registry;
  readonly createModel: (apiKey: string, baseUrl: string) => ModelPort;
  readonly sha256Hex: (text: string) => Promise<string>;
  readonly now: () => number;
  /** Web Locks of this origin: a running turn holds its thread's lock across tabs. */
  readonly locks?: Locks;
}

export interface AppState {
  readonly phase: 'starting' | 'ready' | 'failed';
  /** Why the app cannot work (storage unavailable, closed by a newer tab); shown instead of the app. */
  readonly fatal?: string;
  readonly appConfig?: AppConfigLoad;
  readonly profile?: UserConfig;
  readonly registry?: Registry;
  readonly servers?: ServersStore;
  readonly serverActions?: ServerActions;
  readonly chat?: ChatStore;
  readonly chatActions?: ChatActions;
  readonly settings?: SettingsActions;
  /** First run: no API key yet, so Settings opens. */
  readonly needsApiKey?: boolean;
  /** Servers that could not be registered (stored records that no longer validate, name clashes). */
  readonly serverProblems: readonly string[];
}

export type AppStore = StoreApi<AppState>;

export function createAppStore(): AppStore {
  return createStore<AppState>(() => ({ phase: 'starting', serverProblems: [] }));
}

/** Opens storage, loads the app config and the active profile; failures become state, never throws. */
export async function startApp(store: AppStore, connect: (onLost: (error: AppError) => void) => Promise<AppServices>): Promise<AppServices | undefined> {
  try {
    const services = await connect((error) => store.setState({ phase: 'failed', fatal: error.message }));
    const [appConfig, profile] = await Promise.all([services.loadAppConfig(), services.storage.profiles.ensureActive()]);
    const registry = services.createRegistry(profile.id, appConfig.config.oauth);
    const userServers = await services.storage.profiles.listServers(profile.id);
    const problems = [
      ...(await registerAll(registry, appConfig.config.servers, 'app')),
      ...(await registerAll(registry, userServers.items, 'user')),
      ...userServers.skipped.map((error) => error.message),
    ];
    const servers = createServersStore(registry);
    const serverActions = bindServerActions(servers, { registry, storage: services.storage, profileId: profile.id });
    const stopFollowingServers = followServerChanges({ storage: services.storage, registry, profileId: profile.id });
    const index = createToolIndex();
    syncToolIndex(registry, index);
    const defaults = appConfig.config.defaults;
    const chat = createChat({ storage: services.storage, registry, index, profileId: profile.id, defaults, createModel: services.createModel, sha256Hex: services.sha256Hex, now: services.now, ...(services.locks ? { locks: services.locks } : {}) });
    const { actions: settings } = createSettingsActions({
      storage: services.storage,
      registry,
      profileId: profile.id,
      defaults,
      createModel: services.createModel,
      now: services.now,
      leave: async () => {
        chat.actions.stop();
        stopFollowingServers();
        await registry.close();
      },
      onProfile: (next) => store.setState(next ? { profile: next } : { phase: 'failed', fatal: 'This profile was deleted in another tab. Reload the page to open another one.' }),
    });
    const { hasApiKey } = await settings.load();
    await chat.actions.refreshThreads();
    const lastThread = profile.lastThreadId && chat.store.getState().threads.some((t) => t.id === profile.lastThreadId) ? profile.lastThreadId : undefined;
    if (lastThread) await chat.actions.openThread(lastThread);
    store.setState({ phase: 'ready', appConfig, profile, registry, servers, serverActions, serverProblems: problems, chat: chat.store, chatActions: chat.actions, settings, needsApiKey: !hasApiKey });
    return services;
  } catch (error) {
    store.setState({ phase: 'failed', fatal: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

/** Registers servers one by one, so that one bad server does not keep the others out. */
async function registerAll(registry: Registry, servers: readonly ServerConfig[], scope: 'app' | 'user'): Promise<string[]> {
  const problems: string[] = [];
  for (const server of servers) {
    try {
      await registry.register(server, scope);
    } catch (error) {
      problems.push(`${server.name}: ${describeError(error)}`);
    }
  }
  return problems;
}
