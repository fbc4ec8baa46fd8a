import { logFailure, silentLogger, type Logger } from '../domain/logger';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { describeError, WrongPassphraseError } from '../domain/errors';
import type { Registry } from '../mcp/registry';
import type { Storage } from '../storage/storage';
import type { VaultStatus } from '../storage/vault-keys';

export type { VaultStatus };

/** Shortest passphrase accepted: PBKDF2 slows guessing, it cannot make a short passphrase strong. */
export const MIN_PASSPHRASE_LENGTH = 8;
/** How often the idle lock is checked; the limit itself is counted on the injected clock. */
const IDLE_CHECK_MS = 15_000;

export interface VaultLockState {
  /** Undefined until first read. */
  readonly status?: VaultStatus;
}
export type VaultLockStore = StoreApi<VaultLockState>;

export interface VaultLockDeps {
  readonly storage: Storage;
  readonly registry: Registry;
  readonly profileId: string;
  /** Where failures the actions go on past are reported (silent when omitted). */
  readonly logger?: Logger;
}

/** Field errors by name ("passphrase", "confirm", "autoLock", "form"); empty when it worked. */
export type VaultErrors = Record<string, string>;

/** What the UI can do with the profile's passphrase lock; each answer is field errors, empty when it worked. */
export interface VaultLockActions {
  /** Reads the lock's status into the store. */
  readonly refresh: () => Promise<void>;
  readonly unlock: (passphrase: string) => Promise<VaultErrors>;
  readonly lock: () => Promise<VaultErrors>;
  readonly setPassphrase: (passphrase: string, confirm: string, autoLockMinutes: number) => Promise<VaultErrors>;
  readonly removePassphrase: (passphrase: string) => Promise<VaultErrors>;
  readonly setAutoLock: (minutes: number) => Promise<VaultErrors>;
  /** Erases the profile's secrets (never its threads or servers) so that it can be used without them. */
  readonly forgetPassphrase: () => Promise<VaultErrors>;
  /** The person used the page: the idle count starts again. */
  readonly noteActivity: () => void;
  /** Locks when idle past the limit; the interval calls it, tests call it after moving their clock. */
  readonly checkIdle: () => Promise<void>;
}

/** The lock's store, its actions, and `dispose` (stops the idle timer and following other tabs). */
export interface VaultLock {
  readonly store: VaultLockStore;
  readonly actions: VaultLockActions;
  dispose(): void;
}

/** The profile's passphrase lock as the UI needs it: status, unlock, lock, set, remove, forget, idle lock. */
export function createVaultLock({ storage, registry, profileId, logger = silentLogger }: VaultLockDeps): VaultLock {
  const store = createStore<VaultLockState>(() => ({}));
  const vault = storage.vault;
  const refresh = async () => store.setState({ status: await vault.status(profileId) });
  const attempt = async (work: () => Promise<void>): Promise<VaultErrors> => {
    try {
      await work();
      return {};
    } catch (error) {
      const field = error instanceof WrongPassphraseError ? 'passphrase' : 'form';
      return { [field]: describeError(error) };
    } finally {
      await refresh().catch(logFailure(logger, 'Reading the vault status failed'));
    }
  };
  // Servers that could not connect because their secrets were locked try again once they can be read.
  const reconnectLocked = () => {
    for (const server of registry.list())
      if (server.state.lastError?.kind === 'vault-locked')
        void registry
          .connect(server.config.id)
          .catch(logFailure(logger, 'Connecting after unlock failed', { serverId: server.config.id }));
  };
  const stopFollowing = storage.changes.subscribe((change) => {
    if (change.store === 'credentials' && change.profileId === profileId)
      void refresh().catch(logFailure(logger, 'Reading the vault status failed'));
  });

  const actions: VaultLockActions = {
    refresh,
    unlock: (passphrase: string) =>
      attempt(async () => {
        await vault.unlock(profileId, passphrase);
        reconnectLocked();
      }),
    lock: () => attempt(() => Promise.resolve(vault.lock(profileId))),
    setPassphrase: async (passphrase: string, confirm: string, autoLockMinutes: number): Promise<VaultErrors> => {
      if (passphrase.length < MIN_PASSPHRASE_LENGTH)
        return { passphrase: `The passphrase must have at least ${MIN_PASSPHRASE_LENGTH} characters.` };
      if (passphrase !== confirm) return { confirm: 'The two passphrases differ.' };
      const autoLock = autoLockProblem(autoLockMinutes);
      if (autoLock) return { autoLock };
      return attempt(() => vault.setPassphrase(profileId, passphrase, autoLockMinutes));
    },
    removePassphrase: (passphrase: string) => attempt(() => vault.removePassphrase(profileId, passphrase)),
    setAutoLock: async (minutes: number): Promise<VaultErrors> => {
      const autoLock = autoLockProblem(minutes);
      return autoLock ? { autoLock } : attempt(() => vault.setAutoLock(profileId, minutes));
    },
    /** Erases the profile's secrets (never its threads or servers) so that it can be used without them. */
    forgetPassphrase: () => attempt(() => vault.forgetPassphrase(profileId)),
    /** The person used the page: the idle count starts again. */
    noteActivity: () => vault.noteActivity(profileId),
    /** Locks when idle past the limit; the interval calls it, tests call it after moving their clock. */
    checkIdle: async () => {
      if (vault.lockIfIdle()) await refresh();
    },
  };
  const timer = setInterval(
    () => void actions.checkIdle().catch(logFailure(logger, 'The idle lock check failed')),
    IDLE_CHECK_MS,
  );
  return {
    store,
    actions,
    dispose() {
      clearInterval(timer);
      stopFollowing();
    },
  };
}

function autoLockProblem(minutes: number): string | undefined {
  return Number.isInteger(minutes) && minutes >= 0 && minutes <= 24 * 60
    ? undefined
    : 'Lock after: a whole number of minutes from 0 (never) to 1440.';
}
