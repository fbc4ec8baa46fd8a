import { logFailure, silentLogger, type Logger } from '../domain/logger';
import type { ModelPort } from '../agent/model-port';
import type { AppConfig } from '../domain/app-config';
import type { UserConfig } from '../domain/user-config';
import type { Registry } from '../mcp/registry';
import type { Storage } from '../storage/storage';
import { listAlwaysAllowed, revokeAlwaysAllowed, type AlwaysAllowedView } from './always-allowed';
import {
  exportConfiguration,
  importConfiguration,
  storeServerSecret,
  type ExportedFile,
  type ImportReport,
  type SecretOutcome,
} from './config-transfer';
import { exportAllThreads, importThreads, type ExportedBackup, type ThreadsImportReport } from './threads-backup';
import { effectiveRelayUrl, saveRelayUrl, type RelayView } from './relay-settings';
import { testConnection, type ConnectionTest } from './connection-test';
import { createProfileActions, type ProfileActionDeps, type ProfileActions } from './profile-actions';
import {
  listModels,
  loadSettings,
  resetToolSearch,
  saveSettings,
  type SettingsInput,
  type SettingsView,
} from './settings';
import { loadLimits, saveLimits, type LimitsView } from './usage-limits-actions';
import { resolveUsageLimits, type UsageLimits } from '../domain/usage-limits';

/** Everything the Settings screen does, bound to the open profile. */
export interface SettingsActions {
  readonly load: () => Promise<SettingsView>;
  readonly save: (input: SettingsInput) => Promise<Record<string, string>>;
  readonly models: () => Promise<string[]>;
  /** Checks a base URL and key (the stored key when none is typed) before saving; lists the endpoint's models. */
  readonly testConnection: (input: { readonly apiKey: string; readonly baseUrl: string }) => Promise<ConnectionTest>;
  readonly resetToolSearch: () => Promise<string | undefined>;
  readonly profiles: ProfileActions;
  readonly exportConfig: () => Promise<ExportedFile>;
  readonly importConfig: (text: string) => Promise<ImportReport>;
  /** Every thread of the profile (not those waiting for Undo), all branches and attachments, no secret. */
  readonly exportThreads: () => Promise<ExportedBackup>;
  /** Adds the threads of a backup (or of one thread's export) that are not here yet. */
  readonly importThreads: (text: string) => Promise<ThreadsImportReport>;
  readonly storeServerSecret: (
    serverId: string,
    secret: { readonly headerName?: string; readonly value: string },
  ) => Promise<SecretOutcome>;
  /** The profile's "Always allow" approvals, each with the server origin it holds for. */
  readonly alwaysAllowed: () => Promise<AlwaysAllowedView[]>;
  readonly revokeAlwaysAllowed: (key: string) => Promise<string | undefined>;
  /** The CORS relay: the person's URL and the app's fallback. */
  readonly relay: () => Promise<RelayView>;
  /** Saves the "Relay URL" (blank: the app's); resolves to an error message, or undefined. */
  readonly saveRelay: (url: string) => Promise<string | undefined>;
  /** Asks the relay in effect whether it answers and serves this page (see RelayCheck). */
  readonly checkRelay: () => Promise<RelayCheck>;
  /** Spending limits: the profile's own, the app's defaults, and what was used in their windows. */
  readonly limits: () => Promise<LimitsView>;
  readonly saveLimits: (input: Readonly<Record<keyof UsageLimits, string>>) => Promise<Record<string, string>>;
}

/** What the relay in effect said to a check: none is set, it answers and serves this page, or why it does not. */
export type RelayCheck =
  | { readonly kind: 'none' }
  | { readonly kind: 'answers'; readonly url: string }
  | { readonly kind: 'failed'; readonly url: string; readonly message: string };

export interface SettingsDeps {
  readonly storage: Storage;
  readonly registry: Registry;
  readonly profileId: string;
  readonly defaults: AppConfig['defaults'];
  /** The deployer's relay (app-config.json relay.url). */
  readonly appRelayUrl?: string;
  readonly createModel: (apiKey: string, baseUrl: string) => ModelPort;
  readonly now: () => number;
  /** Stops the open profile's work before it is left (see ProfileActionDeps). */
  readonly leave: () => Promise<void>;
  /** Copies the theme of the profile the next page load opens (see ProfileActionDeps). */
  readonly rememberTheme?: ProfileActionDeps['rememberTheme'];
  /** The open profile after it changed here or in another tab; undefined when it was deleted. */
  readonly onProfile: (profile: UserConfig | undefined) => void;
  /** Where failures the actions go on past are reported (silent when omitted). */
  readonly logger?: Logger;
}

/** Binds the Settings actions to one profile, and follows changes of that profile made in other tabs. */
export function createSettingsActions(deps: SettingsDeps): { actions: SettingsActions; dispose: () => void } {
  const { storage, profileId, defaults } = deps;
  const transfer = { storage, registry: deps.registry, profileId, now: deps.now };
  const reloadProfile = async () => {
    const profile = await storage.profiles.get(profileId);
    await deps.registry.setRelayUrl(effectiveRelayUrl(profile?.preferences.relayUrl, deps.appRelayUrl));
    deps.onProfile(profile);
  };
  const actions: SettingsActions = {
    load: () => loadSettings(storage, profileId, defaults),
    save: async (input) => {
      const errors = await saveSettings(storage, profileId, input, defaults);
      await reloadProfile();
      return errors;
    },
    models: async () =>
      listModels(storage, profileId, (await loadSettings(storage, profileId, defaults)).baseUrl, deps.createModel),
    testConnection: (input) =>
      testConnection({ storage, profileId, defaultBaseUrl: defaults.baseUrl }, input, deps.createModel),
    resetToolSearch: async () => {
      const error = await resetToolSearch(storage, profileId);
      await reloadProfile();
      return error;
    },
    profiles: createProfileActions({
      storage,
      profileId,
      leave: deps.leave,
      onProfile: deps.onProfile,
      ...(deps.rememberTheme ? { rememberTheme: deps.rememberTheme } : {}),
      ...(deps.logger ? { logger: deps.logger } : {}),
    }),
    exportConfig: () => exportConfiguration(transfer),
    importConfig: async (text) => {
      const report = await importConfiguration(transfer, text);
      await reloadProfile();
      return report;
    },
    exportThreads: () => exportAllThreads(transfer),
    importThreads: (text) =>
      importThreads(
        {
          ...transfer,
          serversHere: async () => {
            const profile = await storage.profiles.get(profileId);
            const limits = resolveUsageLimits(defaults.limits, profile?.preferences.limits ?? {});
            const ids = new Set(deps.registry.list().map((server) => server.config.id));
            return { ids, ...(limits.maxServersPerThread !== undefined ? { max: limits.maxServersPerThread } : {}) };
          },
        },
        text,
      ),
    storeServerSecret: (serverId, secret) => storeServerSecret(transfer, serverId, secret),
    alwaysAllowed: () => listAlwaysAllowed(transfer),
    revokeAlwaysAllowed: (key) => revokeAlwaysAllowed(transfer, key),
    relay: async () => ({
      url: (await storage.profiles.get(profileId))?.preferences.relayUrl ?? '',
      ...(deps.appRelayUrl ? { appUrl: deps.appRelayUrl } : {}),
    }),
    saveRelay: async (url) => {
      const error = await saveRelayUrl(storage, deps.registry, profileId, url, deps.appRelayUrl);
      if (!error) await reloadProfile();
      return error;
    },
    checkRelay: async () => {
      const url = deps.registry.relayUrl();
      if (!url) return { kind: 'none' };
      const problem = await deps.registry.checkRelay();
      return problem ? { kind: 'failed', url, message: problem.message } : { kind: 'answers', url };
    },
    limits: () => loadLimits({ storage, profileId, defaults, now: deps.now }),
    saveLimits: async (input) => {
      const errors = await saveLimits({ storage, profileId, defaults, now: deps.now }, input);
      await reloadProfile();
      return errors;
    },
  };
  const dispose = storage.changes.subscribe((change) => {
    if (change.isRemote && change.store === 'profiles' && change.profileId === profileId)
      void reloadProfile().catch(
        logFailure(deps.logger ?? silentLogger, 'Reading the profile changed in another tab failed'),
      );
  });
  return { actions, dispose };
}
