// A hand-written Vault (src/storage/vault.ts) in memory, for tests that need a vault's behaviour and not its
// encryption: secrets per (profile, owner, slot), the app's owners protected, and the passphrase lock as the real
// one answers it (VaultLockedError while locked, WrongPassphraseError for a wrong passphrase, the idle lock counted
// on the injected clock). Nothing is encrypted: the real vault's tests (src/storage/vault*.test.ts) cover that.
import { VaultLockedError, WrongPassphraseError } from '../../src/domain/errors';
import type { ChangeBus } from '../../src/platform/change-bus';
import type { SecretRef, Vault } from '../../src/storage/vault';
import { DEFAULT_AUTO_LOCK_MINUTES, type VaultStatus } from '../../src/storage/vault-keys';
import { isAppOwner } from '../../src/storage/vault-owners';

interface Lock {
  passphrase: string;
  autoLockMinutes: number;
  /** When it was last used while open; undefined while locked. */
  openSince?: number;
}

const keyOf = (ref: SecretRef) => JSON.stringify([ref.profileId, ref.owner, ref.slot]);

/** An in-memory vault; `now` is the clock the idle lock counts on. */
export function createMemoryVault(bus: ChangeBus, now: () => number): Vault {
  const secrets = new Map<string, { readonly ref: SecretRef; readonly secret: string }>();
  const locks = new Map<string, Lock>();

  const isIdle = (lock: Lock) =>
    lock.openSince !== undefined && lock.autoLockMinutes > 0 && now() - lock.openSince >= lock.autoLockMinutes * 60_000;
  /** Throws VaultLockedError while the profile's passphrase lock is closed; counts as use when open. */
  const checkOpen = (profileId: string) => {
    const lock = locks.get(profileId);
    if (!lock) return;
    if (lock.openSince === undefined || isIdle(lock)) {
      lock.openSince = undefined;
      throw new VaultLockedError();
    }
    lock.openSince = now();
  };
  const announce = (profileId: string, key?: string) =>
    bus.publish({ store: 'credentials', profileId, ...(key ? { key } : {}) });
  const ownedBy = (profileId: string, owner?: string) =>
    [...secrets.values()].filter(
      (s) => s.ref.profileId === profileId && (owner === undefined || s.ref.owner === owner),
    );

  return {
    async put(ref, secret) {
      checkOpen(ref.profileId);
      secrets.set(keyOf(ref), { ref: { profileId: ref.profileId, owner: ref.owner, slot: ref.slot }, secret });
      announce(ref.profileId, ref.owner);
    },
    async get(ref) {
      const stored = secrets.get(keyOf(ref));
      if (!stored) return undefined;
      checkOpen(ref.profileId);
      return stored.secret;
    },
    async has(ref) {
      return secrets.has(keyOf(ref));
    },
    async delete(ref) {
      secrets.delete(keyOf(ref));
      announce(ref.profileId, ref.owner);
    },
    async clearOwner(profileId, owner) {
      if (isAppOwner(owner)) throw new Error(`"${owner}" is an owner of the app, not of a server.`);
      for (const { ref } of ownedBy(profileId, owner)) secrets.delete(keyOf(ref));
      announce(profileId, owner);
    },
    // Secrets here are always under their current owners: nothing to move.
    async migrateAppOwners() {},
    async status(profileId): Promise<VaultStatus> {
      const lock = locks.get(profileId);
      if (!lock) return { kind: 'no-passphrase' };
      if (isIdle(lock)) lock.openSince = undefined;
      return { kind: lock.openSince === undefined ? 'locked' : 'unlocked', autoLockMinutes: lock.autoLockMinutes };
    },
    async unlock(profileId, passphrase) {
      const lock = locks.get(profileId);
      if (!lock) return;
      if (lock.passphrase !== passphrase) throw new WrongPassphraseError();
      lock.openSince = now();
      announce(profileId);
    },
    lock(profileId) {
      const lock = locks.get(profileId);
      if (lock) lock.openSince = undefined;
      announce(profileId, 'app:lock');
    },
    noteActivity(profileId) {
      const lock = locks.get(profileId);
      if (lock?.openSince !== undefined && !isIdle(lock)) lock.openSince = now();
    },
    lockIfIdle() {
      let didLock = false;
      for (const lock of locks.values())
        if (isIdle(lock)) {
          lock.openSince = undefined;
          didLock = true;
        }
      return didLock;
    },
    forgetKey(profileId) {
      const lock = locks.get(profileId);
      if (lock) lock.openSince = undefined;
    },
    async setPassphrase(profileId, passphrase, autoLockMinutes = DEFAULT_AUTO_LOCK_MINUTES) {
      checkOpen(profileId);
      locks.set(profileId, { passphrase, autoLockMinutes, openSince: now() });
      announce(profileId);
    },
    async removePassphrase(profileId, passphrase) {
      const lock = locks.get(profileId);
      if (lock && lock.passphrase !== passphrase) throw new WrongPassphraseError();
      locks.delete(profileId);
      announce(profileId);
    },
    async setAutoLock(profileId, autoLockMinutes) {
      checkOpen(profileId);
      const lock = locks.get(profileId);
      if (lock) lock.autoLockMinutes = autoLockMinutes;
      announce(profileId);
    },
    async forgetPassphrase(profileId) {
      for (const { ref } of ownedBy(profileId)) secrets.delete(keyOf(ref));
      locks.delete(profileId);
      announce(profileId);
    },
  };
}
