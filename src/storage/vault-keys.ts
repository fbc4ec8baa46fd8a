import { z } from 'zod';
import { VaultLockedError, WrongPassphraseError } from '../domain/errors';
import type { Cipher } from '../platform/web-crypto';
import { fromBase64, toBase64 } from './base64';
import { parseRecord, writeTransaction } from './records';
import type { StorageContext } from './storage-context';

/** PBKDF2-HMAC-SHA256 work factor: OWASP's Password Storage Cheat Sheet asks for 600,000 iterations. */
export const PASSPHRASE_ITERATIONS = 600_000;
/** Locks after this many idle minutes unless the person chose otherwise; 0 means never. */
export const DEFAULT_AUTO_LOCK_MINUTES = 15;

const Base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/);
const PlainKeyRecord = z.object({
  profileId: z.string(),
  keyId: z.string(),
  key: z.custom<CryptoKey>(
    (value) => typeof CryptoKey !== 'undefined' && value instanceof CryptoKey,
    'not a CryptoKey',
  ),
  createdAt: z.number(),
});
/** The data key's raw bytes wrapped under a key derived from the passphrase: the only key material stored. */
const WrappedKey = z.object({
  kdf: z.literal('PBKDF2-SHA256'),
  iterations: z.number().int().positive(),
  salt: Base64,
  alg: z.literal('AES-GCM-256'),
  iv: Base64,
  key: Base64,
  autoLockMinutes: z.number().int().min(0),
});
const WrappedKeyRecord = z.object({
  profileId: z.string(),
  keyId: z.string(),
  wrapped: WrappedKey,
  createdAt: z.number(),
});
const VaultKeyRecord = z.union([PlainKeyRecord, WrappedKeyRecord]);
/** A profile's stored vault key: the non-extractable key itself, or only its passphrase-wrapped bytes. */
export type VaultKeyRecord = z.infer<typeof VaultKeyRecord>;
type WrappedKeyRecord = z.infer<typeof WrappedKeyRecord>;

/** A key ready to use, with the id envelopes name it by. */
export interface UsableKey {
  readonly keyId: string;
  readonly key: CryptoKey;
}

/** The passphrase state of one profile in this tab. */
export type VaultStatus =
  | { readonly kind: 'no-passphrase' }
  | { readonly kind: 'locked'; readonly autoLockMinutes: number }
  | { readonly kind: 'unlocked'; readonly autoLockMinutes: number };

/** A key record made but not yet stored, with the key it holds (held by the caller only once stored). */
export interface NewVaultKey {
  readonly record: VaultKeyRecord;
  readonly key: UsableKey;
}

/** The vault's keys per profile: which key reads and writes, and the passphrase lock held in this tab. */
export interface KeyRing {
  readRecord(profileId: string): Promise<VaultKeyRecord | undefined>;
  /** The key to decrypt with, undefined when the profile has none yet; throws VaultLockedError while locked. */
  forRead(profileId: string): Promise<UsableKey | undefined>;
  /** The key to encrypt with, created (without a passphrase) on first use; throws VaultLockedError while locked. */
  forWrite(profileId: string): Promise<UsableKey>;
  status(profileId: string): Promise<VaultStatus>;
  /** Unwraps the profile's key with the passphrase; WrongPassphraseError when it does not fit. */
  unlock(profileId: string, passphrase: string): Promise<UsableKey | undefined>;
  /** A new wrapped key record for `passphrase`, and the key itself (not yet held: the caller stores it first). */
  wrapNew(profileId: string, passphrase: string, autoLockMinutes: number): Promise<NewVaultKey>;
  /** A new stored non-extractable key record (the passphrase removed). */
  plainNew(profileId: string): Promise<NewVaultKey>;
  /** Holds an unwrapped key in this tab after its record was stored. */
  hold(profileId: string, key: UsableKey, autoLockMinutes: number): void;
  lock(profileId: string): void;
  /** Counts as use of the vault for the idle lock (the person is active in the page). */
  noteActivity(profileId: string): void;
  /** Locks every profile idle past its limit; returns whether any was locked. */
  lockIfIdle(): boolean;
}

interface Unlocked extends UsableKey {
  lastUsed: number;
  autoLockMinutes: number;
}

/**
 * The vault's keys per profile: a stored non-extractable key (no passphrase), or a wrapped key that lives
 * unwrapped only in this tab's memory between unlock and lock (on demand, or after idle minutes by `now`).
 */
export function createKeyRing(
  { db, now, newId }: StorageContext,
  cipher: Cipher,
  iterations = PASSPHRASE_ITERATIONS,
): KeyRing {
  const unlocked = new Map<string, Unlocked>();

  async function readRecord(profileId: string): Promise<VaultKeyRecord | undefined> {
    const stored = await db.get('vaultKeys', profileId);
    return stored && parseRecord(VaultKeyRecord, 'vault key', profileId, stored);
  }

  /** The unwrapped key of a locked-capable profile, or VaultLockedError (also when idle past its limit). */
  function heldKey(record: WrappedKeyRecord): UsableKey {
    const held = unlocked.get(record.profileId);
    if (!held || held.keyId !== record.keyId || isIdle(held)) {
      unlocked.delete(record.profileId);
      throw new VaultLockedError();
    }
    held.lastUsed = now();
    return held;
  }

  function isIdle(held: Unlocked): boolean {
    return held.autoLockMinutes > 0 && now() - held.lastUsed >= held.autoLockMinutes * 60_000;
  }

  async function deriveAndUnwrap(record: WrappedKeyRecord, passphrase: string): Promise<CryptoKey> {
    const { salt, iterations: count, iv, key } = record.wrapped;
    const wrappingKey = await cipher.deriveWrappingKey(passphrase, fromBase64(salt), count);
    try {
      return await cipher.unwrapKey(wrappingKey, fromBase64(iv), fromBase64(key));
    } catch {
      throw new WrongPassphraseError();
    }
  }

  return {
    readRecord,

    /** The key to decrypt with, undefined when the profile has none yet; throws VaultLockedError while locked. */
    async forRead(profileId: string): Promise<UsableKey | undefined> {
      const record = await readRecord(profileId);
      if (!record) return undefined;
      return 'key' in record ? record : heldKey(record);
    },

    /** The key to encrypt with, created (without a passphrase) on first use; throws VaultLockedError while locked. */
    async forWrite(profileId: string): Promise<UsableKey> {
      const record = await readRecord(profileId);
      if (record) return 'key' in record ? record : heldKey(record);
      const fresh = { profileId, keyId: newId(), key: await cipher.generateKey(), createdAt: now() };
      // Another tab may have created one meanwhile: the first key written wins and both tabs use it.
      const kept = await writeTransaction(db, ['vaultKeys'], async (tx) => {
        const store = tx.objectStore('vaultKeys');
        const raced = await store.get(profileId);
        if (raced) return raced;
        await store.add(fresh);
        return fresh;
      });
      const parsed = parseRecord(VaultKeyRecord, 'vault key', profileId, kept);
      return 'key' in parsed ? parsed : heldKey(parsed);
    },

    async status(profileId: string): Promise<VaultStatus> {
      const record = await readRecord(profileId);
      if (!record || 'key' in record) return { kind: 'no-passphrase' };
      const held = unlocked.get(profileId);
      const isOpen = held !== undefined && held.keyId === record.keyId && !isIdle(held);
      if (!isOpen) unlocked.delete(profileId);
      return { kind: isOpen ? 'unlocked' : 'locked', autoLockMinutes: record.wrapped.autoLockMinutes };
    },

    /** Unwraps the profile's key with the passphrase; WrongPassphraseError when it does not fit. */
    async unlock(profileId: string, passphrase: string): Promise<UsableKey | undefined> {
      const record = await readRecord(profileId);
      if (!record) return undefined;
      if ('key' in record) return record;
      const key = await deriveAndUnwrap(record, passphrase);
      const held = { keyId: record.keyId, key, lastUsed: now(), autoLockMinutes: record.wrapped.autoLockMinutes };
      unlocked.set(profileId, held);
      return held;
    },

    /** A new wrapped key record for `passphrase`, and the key itself (not yet held: the caller stores it first). */
    async wrapNew(profileId: string, passphrase: string, autoLockMinutes: number): Promise<NewVaultKey> {
      const salt = cipher.randomBytes(16);
      const wrappingKey = await cipher.deriveWrappingKey(passphrase, salt, iterations);
      const { key, iv, wrapped } = await cipher.newWrappedKey(wrappingKey);
      const record: WrappedKeyRecord = {
        profileId,
        keyId: newId(),
        createdAt: now(),
        wrapped: {
          kdf: 'PBKDF2-SHA256',
          iterations,
          salt: toBase64(salt),
          alg: 'AES-GCM-256',
          iv: toBase64(iv),
          key: toBase64(wrapped),
          autoLockMinutes,
        },
      };
      return { record, key: { keyId: record.keyId, key } };
    },

    /** A new stored non-extractable key record (the passphrase removed). */
    async plainNew(profileId: string): Promise<NewVaultKey> {
      const record = { profileId, keyId: newId(), key: await cipher.generateKey(), createdAt: now() };
      return { record, key: { keyId: record.keyId, key: record.key } };
    },

    /** Holds an unwrapped key in this tab after its record was stored. */
    hold(profileId: string, key: UsableKey, autoLockMinutes: number): void {
      unlocked.set(profileId, { ...key, lastUsed: now(), autoLockMinutes });
    },

    lock(profileId: string): void {
      unlocked.delete(profileId);
    },

    /** Counts as use of the vault for the idle lock (the person is active in the page). */
    noteActivity(profileId: string): void {
      const held = unlocked.get(profileId);
      if (held && !isIdle(held)) held.lastUsed = now();
    },

    /** Locks every profile idle past its limit; returns whether any was locked. */
    lockIfIdle(): boolean {
      let didLock = false;
      for (const [profileId, held] of unlocked)
        if (isIdle(held)) {
          unlocked.delete(profileId);
          didLock = true;
        }
      return didLock;
    },
  };
}
