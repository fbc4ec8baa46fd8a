import { logFailure, silentLogger, type Logger } from '../domain/logger';
import { describeError, ValidationError } from '../domain/errors';
import type { UserConfig } from '../domain/user-config';
import type { Storage } from '../storage/storage';
import type { Theme } from './settings';

/** One profile as the Settings list shows it. */
export interface ProfileSummary {
  readonly id: string;
  readonly name: string;
  readonly isActive: boolean;
}

/** What a profile change asks of the page: nothing, or a reload into the (new) active profile. */
export interface ProfileChange {
  readonly error?: string;
  /** The app is bound to one profile (registry, chat, credentials): opening another one reloads it. */
  readonly reload: boolean;
}

export interface ProfileActionDeps {
  readonly storage: Storage;
  /** The profile this page has open. */
  readonly profileId: string;
  /** Stops what the open profile is doing (a running turn, server connections) before it is left or deleted. */
  readonly leave: () => Promise<void>;
  /** The open profile after a change of its own preferences (the theme, say). */
  readonly onProfile: (profile: UserConfig) => void;
  /** Copies the theme of the profile the page reloads into, so that the reload paints in it from the first frame. */
  readonly rememberTheme?: (theme: Theme) => void;
  /** Where failures the actions go on past are reported (silent when omitted). */
  readonly logger?: Logger;
}

export interface ProfileActions {
  list(): Promise<ProfileSummary[]>;
  /** Adds a profile; resolves to field errors ("name" → message), empty when created. */
  create(name: string): Promise<Record<string, string>>;
  switchTo(profileId: string): Promise<ProfileChange>;
  /** Deletes a profile with its servers, threads, credentials and key; the open one is left first. */
  remove(profileId: string): Promise<ProfileChange>;
  setTheme(theme: Theme): Promise<string | undefined>;
  /** Turns MCP Apps in tool results on or off for this profile; resolves to an error message, or undefined. */
  setMcpApps(isOn: boolean): Promise<string | undefined>;
  /** Calls `listener` when another tab adds, renames or deletes a profile; returns a function that stops it. */
  follow(listener: () => void): () => void;
}

/** The profile actions of the Settings screen. */
export function createProfileActions(deps: ProfileActionDeps): ProfileActions {
  const { storage, profileId } = deps;
  return {
    follow: (listener) =>
      storage.changes.subscribe((change) => {
        if (change.isRemote && change.store === 'profiles') listener();
      }),
    async list() {
      const { items } = await storage.profiles.list();
      return items
        .sort((a, b) => a.createdAt - b.createdAt)
        .map((p) => ({ id: p.id, name: p.name, isActive: p.id === profileId }));
    },
    async create(name) {
      try {
        await storage.profiles.create({ name });
        return {};
      } catch (error) {
        if (error instanceof ValidationError)
          return Object.fromEntries(error.issues.map((i) => [i.path === 'name' ? 'name' : 'form', i.message]));
        return { form: describeError(error) };
      }
    },
    async switchTo(id) {
      if (id === profileId) return { reload: false };
      try {
        const next = await storage.profiles.get(id);
        if (!next) return { error: 'That profile no longer exists.', reload: false };
        await storage.profiles.setActiveId(id);
        deps.rememberTheme?.(next.preferences.theme);
        // The reload ends whatever leaving left undone.
        await deps.leave().catch(logFailure(deps.logger ?? silentLogger, 'Leaving the profile failed'));
        return { reload: true };
      } catch (error) {
        return { error: describeError(error), reload: false };
      }
    },
    async remove(id) {
      const isOpen = id === profileId;
      try {
        if ((await storage.profiles.list()).items.length <= 1)
          return { error: 'The last profile cannot be deleted; create another one first.', reload: false };
        // Nothing of the open profile may keep writing (a token refresh, a catalog) once its records are gone.
        if (isOpen) await deps.leave();
        await storage.profiles.delete(id);
        if (isOpen && deps.rememberTheme) deps.rememberTheme((await storage.profiles.ensureActive()).preferences.theme);
        return { reload: isOpen };
      } catch (error) {
        // After leaving, the page has no working registry: reload either way.
        return { error: describeError(error), reload: isOpen };
      }
    },
    async setMcpApps(isOn) {
      try {
        deps.onProfile(
          await storage.profiles.update(profileId, (p) => ({ ...p, preferences: { ...p.preferences, mcpApps: isOn } })),
        );
        return undefined;
      } catch (error) {
        return describeError(error);
      }
    },
    async setTheme(theme) {
      try {
        deps.onProfile(
          await storage.profiles.update(profileId, (p) => ({ ...p, preferences: { ...p.preferences, theme } })),
        );
        return undefined;
      } catch (error) {
        return describeError(error);
      }
    },
  };
}
