import { SecretUnreadableError, VaultChangedError } from '../domain/errors';
import type { AppSchema } from '../platform/database-schema';
import type { Cipher } from '../platform/web-crypto';
import { writeTransaction } from './records';
import type { StorageContext } from './storage-context';
import { open, seal } from './vault-envelope';
import { DEFAULT_AUTO_LOCK_MINUTES, type KeyRing, type NewVaultKey, type UsableKey } from './vault-keys';
import { isLegacyModelKey, MODEL_API_OWNER } from './vault-owners';

type CredentialRecord = AppSchema['credentials']['value'];

/** Setting, changing, removing and forgetting a profile's passphrase; every secret is re-encrypted, none lost. */
export interface PassphraseActions {
  /** Sets or changes the passphrase (the vault must be open); afterwards only the wrapped key is stored. */
  setPassphrase(profileId: string, passphrase: string, autoLockMinutes?: number): Promise<void>;
  /** Removes the passphrase after checking it: a stored non-extractable key again, as without one. */
  removePassphrase(profileId: string, passphrase: string): Promise<void>;
  /** Changes the idle minutes before the vault locks itself (0: never); the vault must be open. */
  setAutoLock(profileId: string, autoLockMinutes: number): Promise<void>;
  /** A forgotten passphrase: erases the profile's secrets and key, and nothing else (threads stay). */
  forgetPassphrase(profileId: string): Promise<void>;
}

/** The passphrase actions over the profile's key ring and credentials in IndexedDB. */
export function createPassphraseActions(
  { db, bus, now }: StorageContext,
  cipher: Cipher,
  keys: KeyRing,
): PassphraseActions {
  /** Re-encrypts every readable secret of the profile under `next` and stores both in one transaction. */
  async function rekey(profileId: string, from: UsableKey | undefined, next: NewVaultKey) {
    const rewritten: { old: CredentialRecord; fresh: CredentialRecord }[] = [];
    for (const old of await db.getAllFromIndex('credentials', 'byProfile', profileId)) {
      const plain = from && (await open(cipher, from, old.envelope, old).catch(unreadableAsUndefined));
      if (plain === undefined) continue; // Unreadable already: left as it is, never made worse.
      // The API key under its pre-namespace owner moves to MODEL_API_OWNER on the way.
      const owner = isLegacyModelKey(old.owner, old.slot) ? MODEL_API_OWNER : old.owner;
      const ref = { profileId, owner, slot: old.slot };
      rewritten.push({ old, fresh: { ...ref, envelope: await seal(cipher, next.key, ref, plain), updatedAt: now() } });
    }
    await writeTransaction(db, ['vaultKeys', 'credentials'], async (tx) => {
      const current = await tx.objectStore('vaultKeys').get(profileId);
      if (current?.keyId !== from?.keyId) throw new VaultChangedError();
      await tx.objectStore('vaultKeys').put(next.record);
      const credentials = tx.objectStore('credentials');
      for (const { old, fresh } of rewritten) {
        if (old.owner !== fresh.owner) await credentials.delete([profileId, old.owner, old.slot]);
        await credentials.put(fresh);
      }
    });
    bus.publish({ store: 'credentials', profileId });
  }

  return {
    /** Sets or changes the passphrase (the vault must be open); afterwards only the wrapped key is stored. */
    async setPassphrase(
      profileId: string,
      passphrase: string,
      autoLockMinutes: number = DEFAULT_AUTO_LOCK_MINUTES,
    ): Promise<void> {
      const from = await keys.forRead(profileId);
      const next = await keys.wrapNew(profileId, passphrase, autoLockMinutes);
      await rekey(profileId, from, next);
      keys.hold(profileId, next.key, autoLockMinutes);
    },

    /** Removes the passphrase after checking it: a stored non-extractable key again, as without one. */
    async removePassphrase(profileId: string, passphrase: string): Promise<void> {
      const from = await keys.unlock(profileId, passphrase);
      await rekey(profileId, from, await keys.plainNew(profileId));
      keys.lock(profileId);
    },

    /** Changes the idle minutes before the vault locks itself (0: never); the vault must be open. */
    async setAutoLock(profileId: string, autoLockMinutes: number): Promise<void> {
      const key = await keys.forRead(profileId);
      const record = await keys.readRecord(profileId);
      if (!key || !record || !('wrapped' in record)) return;
      await writeTransaction(db, ['vaultKeys'], async (tx) => {
        const current = await tx.objectStore('vaultKeys').get(profileId);
        if (current?.keyId !== record.keyId) throw new VaultChangedError();
        await tx.objectStore('vaultKeys').put({ ...record, wrapped: { ...record.wrapped, autoLockMinutes } });
      });
      keys.hold(profileId, key, autoLockMinutes);
      bus.publish({ store: 'credentials', profileId });
    },

    /** A forgotten passphrase: erases the profile's secrets and key, and nothing else (threads stay). */
    async forgetPassphrase(profileId: string): Promise<void> {
      await writeTransaction(db, ['vaultKeys', 'credentials'], async (tx) => {
        const credentials = tx.objectStore('credentials');
        for (const key of await credentials.index('byProfile').getAllKeys(profileId)) await credentials.delete(key);
        await tx.objectStore('vaultKeys').delete(profileId);
      });
      keys.lock(profileId);
      bus.publish({ store: 'credentials', profileId });
    },
  };
}

function unreadableAsUndefined(error: unknown): undefined {
  if (error instanceof SecretUnreadableError) return undefined;
  throw error;
}
