import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AppError } from '../domain/errors';
import type { UserConfig } from '../domain/user-config';
import type { AppConfigLoad } from '../storage/app-config-source';
import type { Storage } from '../storage/storage';

/** What start-up needs from the composition root. */
export interface AppServices {
  readonly storage: Storage;
  readonly loadAppConfig: () => Promise<AppConfigLoad>;
}

export interface AppState {
  readonly phase: 'starting' | 'ready' | 'failed';
  /** Why the app cannot work (storage unavailable, closed by a newer tab); shown instead of the app. */
  readonly fatal?: string;
  readonly appConfig?: AppConfigLoad;
  readonly profile?: UserConfig;
}

export type AppStore = StoreApi<AppState>;

export function createAppStore(): AppStore {
  return createStore<AppState>(() => ({ phase: 'starting' }));
}

/** Opens storage, loads the app config and the active profile; failures become state, never throws. */
export async function startApp(store: AppStore, connect: (onLost: (error: AppError) => void) => Promise<AppServices>): Promise<AppServices | undefined> {
  try {
    const services = await connect((error) => store.setState({ phase: 'failed', fatal: error.message }));
    const [appConfig, profile] = await Promise.all([services.loadAppConfig(), services.storage.profiles.ensureActive()]);
    store.setState({ phase: 'ready', appConfig, profile });
    return services;
  } catch (error) {
    store.setState({ phase: 'failed', fatal: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}
