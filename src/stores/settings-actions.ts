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
import type { UsageLimits } from '../domain/usage-limits';

/** Everything the Settings screen does, bound to the open profile. */
export interface SettingsActions {
  readonly load: () => Promise<SettingsView>;
  readonly save: (input: SettingsInput) => Promise<Record<string, string>>;
  readonly models: () => Promise<string[]>;
  readonly resetToolSearch: () => Promise<string | undefined>;
  readonly profiles: ProfileActions;
  readonly exportConfig: () => Promise<ExportedFile>;
  readonly importConfig: (text: string) => Promise<ImportReport>;
  readonly storeServerSecret: (
    serverId: string,
    secret: { readonly headerName?: string; readonly value: string },
  ) => Promise<SecretOutcome>;
  /** The profile's "Always allow" approvals, each with the server origin it holds for. */
  readonly alwaysAllowed: () => Promise<AlwaysAllowedView[]>;
  readonly revokeAlwaysAllowed: (key: string) => Promise<string | undefined>;
  /** Spending limits: the profile's own, the app's defaults, and what was used in their windows. */
  readonly limits: () => Promise<LimitsView>;
  readonly saveLimits: (input: Readonly<Record<keyof UsageLimits, string>>) => Promise<Record<string, string>>;
}

export interface SettingsDeps {
  readonly storage: Storage;
  readonly registry: Registry;
  readonly profileId: string;
  readonly defaults: AppConfig['defaults'];
  readonly createModel: (apiKey: string, baseUrl: string) => ModelPort;
  readonly now: () => number;
  /** Stops the open profile's work before it is left (see ProfileActionDeps). */
  readonly leave: () => Promise<void>;
  /** Copies the theme of the profile the next page load opens (see ProfileActionDeps). */
  readonly rememberTheme?: ProfileActionDeps['rememberTheme'];
  /** The open profile after it changed here or in another tab; undefined when it was deleted. */
  readonly onProfile: (profile: UserConfig | undefined) => void;
}

/** Binds the Settings actions to one profile, and follows changes of that profile made in other tabs. */
export function createSettingsActions(deps: SettingsDeps): { actions: SettingsActions; dispose: () => void } {
  const { storage, profileId, defaults } = deps;
  const transfer = { storage, registry: deps.registry, profileId, now: deps.now };
  const reloadProfile = async () => deps.onProfile(await storage.profiles.get(profileId));
  const actions: SettingsActions = {
    load: () => loadSettings(storage, profileId, defaults),
    save: async (input) => {
      const errors = await saveSettings(storage, profileId, input, defaults.toolSearch);
      await reloadProfile();
      return errors;
    },
    models: async () =>
      listModels(storage, profileId, (await loadSettings(storage, profileId, defaults)).baseUrl, deps.createModel),
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
    }),
    exportConfig: () => exportConfiguration(transfer),
    importConfig: async (text) => {
      const report = await importConfiguration(transfer, text);
      await reloadProfile();
      return report;
    },
    storeServerSecret: (serverId, secret) => storeServerSecret(transfer, serverId, secret),
    alwaysAllowed: () => listAlwaysAllowed(transfer),
    revokeAlwaysAllowed: (key) => revokeAlwaysAllowed(transfer, key),
    limits: () => loadLimits({ storage, profileId, defaults, now: deps.now }),
    saveLimits: async (input) => {
      const errors = await saveLimits({ storage, profileId, defaults, now: deps.now }, input);
      await reloadProfile();
      return errors;
    },
  };
  const dispose = storage.changes.subscribe((change) => {
    if (change.isRemote && change.store === 'profiles' && change.profileId === profileId)
      void reloadProfile().catch(() => undefined);
  });
  return { actions, dispose };
}
