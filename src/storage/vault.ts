import { logFailure, silentLogger } from '../domain/logger';
import { SecretUnreadableError, VaultLockedError } from '../domain/errors';
import type { Cipher } from '../platform/web-crypto';
import { writeTransaction } from './records';
import type { StorageContext } from './storage-context';
import { open, seal, type SecretRef } from './vault-envelope';
import { createKeyRing, type UsableKey, type VaultStatus } from './vault-keys';
import { isAppOwner, isLegacyModelKey, LEGACY_MODEL_KEY, MODEL_API_OWNER } from './vault-owners';
import { createPassphraseActions, type PassphraseActions } from './vault-passphrase';

/** The change-bus key that announces a lock to other tabs; ":" keeps it apart from every server id. */
const LOCK_ANNOUNCEMENT = 'app:lock';

export { SecretEnvelope, type SecretRef } from './vault-envelope';
export { API_KEY_SLOT, MODEL_API_OWNER } from './vault-owners';

/** The token vault: every secret of every profile, encrypted at rest, with the profile's passphrase lock. */
export interface Vault extends PassphraseActions {
  put(ref: SecretRef, secret: string): Promise<void>;
  /** The secret, or undefined when none is stored; VaultLockedError while locked, SecretUnreadableError when undecryptable. */
  get(ref: SecretRef): Promise<string | undefined>;
  has(ref: SecretRef): Promise<boolean>;
  delete(ref: SecretRef): Promise<void>;
  /** Clears every secret of one server (being removed or signed out); the app's own owners are never touched. */
  clearOwner(profileId: string, owner: string): Promise<void>;
  /** Moves the API key stored under the old owner "anthropic" (a name a server could take) to MODEL_API_OWNER. */
  migrateAppOwners(profileId: string): Promise<void>;
  status(profileId: string): Promise<VaultStatus>;
  /** Unlocks the profile's secrets in this tab; WrongPassphraseError when the passphrase does not fit. */
  unlock(profileId: string, secret: string): Promise<void>;
  /** Locks the profile here and in every other tab of this browser. */
  lock(profileId: string): void;
  /** The person used the page: the idle count starts again. */
  noteActivity(profileId: string): void;
  /** Locks every profile idle past its limit; returns whether any was locked. */
  lockIfIdle(): boolean;
  /** Forgets the unlocked key of a profile (after the profile was deleted). */
  forgetKey(profileId: string): void;
}

/**
 * The token vault: secrets encrypted with AES-GCM under a key per profile, kept either as a non-extractable
 * key or, with a passphrase, only wrapped (vault-keys.ts). The record's address is bound in as associated
 * data, so an envelope copied to another record does not decrypt.
 */
export function createVault(context: StorageContext, cipher: Cipher, iterations?: number): Vault {
  const { db, bus, now } = context;
  const keys = createKeyRing(context, cipher, iterations);
  const passphrase = createPassphraseActions(context, cipher, keys);
  // A lock made in another tab locks this one too; an unlock never travels (each tab asks for the passphrase).
  bus.subscribe((change) => {
    if (change.isRemote && change.key === LOCK_ANNOUNCEMENT && change.profileId) keys.lock(change.profileId);
  });

  return {
    async put(ref: SecretRef, secret: string): Promise<void> {
      const envelope = await seal(cipher, await keys.forWrite(ref.profileId), ref, secret);
      await writeTransaction(db, ['credentials'], (tx) =>
        tx.objectStore('credentials').put({ ...ref, envelope, updatedAt: now() }),
      );
      bus.publish({ store: 'credentials', profileId: ref.profileId, key: ref.owner });
    },

    /**
     * The secret, or undefined when none is stored. Throws VaultLockedError while the profile is locked,
     * SecretUnreadableError when it cannot be decrypted.
     */
    async get(ref: SecretRef): Promise<string | undefined> {
      const record = await db.get('credentials', [ref.profileId, ref.owner, ref.slot]);
      if (record === undefined) return undefined;
      let key: UsableKey | undefined;
      try {
        key = await keys.forRead(ref.profileId);
      } catch (error) {
        if (error instanceof VaultLockedError) throw error;
        throw new SecretUnreadableError(ref.owner, ref.slot);
      }
      if (!key) throw new SecretUnreadableError(ref.owner, ref.slot);
      return open(cipher, key, record.envelope, ref);
    },

    async has(ref: SecretRef): Promise<boolean> {
      return (await db.getKey('credentials', [ref.profileId, ref.owner, ref.slot])) !== undefined;
    },

    async delete(ref: SecretRef): Promise<void> {
      await writeTransaction(db, ['credentials'], (tx) =>
        tx.objectStore('credentials').delete([ref.profileId, ref.owner, ref.slot]),
      );
      bus.publish({ store: 'credentials', profileId: ref.profileId, key: ref.owner });
    },

    /** Clears every secret of one server (being removed or signed out); the app's own owners are never touched. */
    async clearOwner(profileId: string, owner: string): Promise<void> {
      if (isAppOwner(owner)) throw new Error(`"${owner}" is an owner of the app, not of a server.`);
      await writeTransaction(db, ['credentials'], async (tx) => {
        const store = tx.objectStore('credentials');
        for (const key of await store.index('byOwner').getAllKeys([profileId, owner]))
          if (!isLegacyModelKey(key[1], key[2])) await store.delete(key);
      });
      bus.publish({ store: 'credentials', profileId, key: owner });
    },

    /** Moves the API key stored under the old owner "anthropic" (a name a server could take) to MODEL_API_OWNER. */
    async migrateAppOwners(profileId: string): Promise<void> {
      const legacy = { profileId, owner: LEGACY_MODEL_KEY.owner, slot: LEGACY_MODEL_KEY.slot };
      const current = { ...legacy, owner: MODEL_API_OWNER };
      const record = await db.get('credentials', [profileId, legacy.owner, legacy.slot]);
      if (!record) return;
      // Locked: it moves after unlock.
      const key = await keys.forRead(profileId).catch(
        logFailure(context.logger ?? silentLogger, 'The vault key could not be read; the API key moves later', {
          profileId,
        }),
      );
      if (!key) return;
      const secret = await open(cipher, key, record.envelope, legacy);
      const envelope = await seal(cipher, key, current, secret);
      await writeTransaction(db, ['credentials'], async (tx) => {
        const store = tx.objectStore('credentials');
        if ((await store.getKey([profileId, current.owner, current.slot])) === undefined)
          await store.put({ ...current, envelope, updatedAt: now() });
        await store.delete([profileId, legacy.owner, legacy.slot]);
      });
      bus.publish({ store: 'credentials', profileId, key: MODEL_API_OWNER });
    },

    status: (profileId: string) => keys.status(profileId),
    /** Unlocks the profile's secrets in this tab; WrongPassphraseError when the passphrase does not fit. */
    async unlock(profileId: string, secret: string): Promise<void> {
      await keys.unlock(profileId, secret);
      bus.publish({ store: 'credentials', profileId });
    },
    /** Locks the profile here and in every other tab of this browser. */
    lock(profileId: string): void {
      keys.lock(profileId);
      bus.publish({ store: 'credentials', profileId, key: LOCK_ANNOUNCEMENT });
    },
    noteActivity: (profileId: string) => keys.noteActivity(profileId),
    lockIfIdle: () => keys.lockIfIdle(),
    ...passphrase,

    /** Forgets the unlocked key of a profile (after the profile was deleted). */
    forgetKey(profileId: string): void {
      keys.lock(profileId);
    },
  };
}
