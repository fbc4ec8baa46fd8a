import { z } from 'zod';
import { SecretUnreadableError } from '../domain/errors';
import type { Cipher } from '../platform/web-crypto';
import { parseRecord, writeTransaction } from './records';
import type { StorageContext } from './storage-context';

/** Where a secret belongs: a profile, an owner (a server id, or "anthropic") and a slot ("bearer", "oauth-tokens", ...). */
export interface SecretRef {
  readonly profileId: string;
  readonly owner: string;
  readonly slot: string;
}

/** Owner name of the secrets that belong to the model API rather than to an MCP server. */
export const MODEL_API_OWNER = 'anthropic';

const ENVELOPE_VERSION = 1;
const Base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/);
/** The stored form of a secret: versioned, naming its key and algorithm, with a fresh IV per encryption. */
export const SecretEnvelope = z.object({
  v: z.literal(ENVELOPE_VERSION),
  keyId: z.string().min(1),
  alg: z.literal('AES-GCM-256'),
  iv: Base64,
  ct: Base64,
});
export type SecretEnvelope = z.infer<typeof SecretEnvelope>;

const VaultKeyRecord = z.object({
  profileId: z.string(),
  keyId: z.string(),
  key: z.custom<CryptoKey>(
    (value) => typeof CryptoKey !== 'undefined' && value instanceof CryptoKey,
    'not a CryptoKey',
  ),
  createdAt: z.number(),
});

/**
 * The token vault: secrets encrypted with AES-GCM under a non-extractable key per profile. The record's
 * address is bound in as associated data, so an envelope copied to another record does not decrypt.
 */
export function createVault({ db, bus, now, newId }: StorageContext, cipher: Cipher) {
  const keys = new Map<string, Promise<{ keyId: string; key: CryptoKey }>>();

  async function loadOrCreateKey(profileId: string): Promise<{ keyId: string; key: CryptoKey }> {
    const stored = await db.get('vaultKeys', profileId);
    if (stored) return parseRecord(VaultKeyRecord, 'vault key', profileId, stored);
    const fresh = { profileId, keyId: newId(), key: await cipher.generateKey(), createdAt: now() };
    // Another tab may have created one meanwhile: the first key written wins and both tabs use it.
    return writeTransaction(db, ['vaultKeys'], async (tx) => {
      const store = tx.objectStore('vaultKeys');
      const raced = await store.get(profileId);
      if (raced) return raced;
      await store.add(fresh);
      return fresh;
    });
  }

  function keyFor(profileId: string) {
    let pending = keys.get(profileId);
    if (!pending) {
      pending = loadOrCreateKey(profileId);
      pending.catch(() => keys.delete(profileId));
      keys.set(profileId, pending);
    }
    return pending;
  }

  return {
    async put(ref: SecretRef, secret: string): Promise<void> {
      const { keyId, key } = await keyFor(ref.profileId);
      const { iv, ciphertext } = await cipher.encrypt(key, new TextEncoder().encode(secret), associatedData(ref));
      const envelope: SecretEnvelope = {
        v: ENVELOPE_VERSION,
        keyId,
        alg: cipher.algorithm,
        iv: toBase64(iv),
        ct: toBase64(ciphertext),
      };
      await writeTransaction(db, ['credentials'], (tx) =>
        tx.objectStore('credentials').put({ ...ref, envelope, updatedAt: now() }),
      );
      bus.publish({ store: 'credentials', profileId: ref.profileId, key: ref.owner });
    },

    /** The secret, or undefined when none is stored. Throws SecretUnreadableError when it cannot be decrypted. */
    async get(ref: SecretRef): Promise<string | undefined> {
      const record = await db.get('credentials', [ref.profileId, ref.owner, ref.slot]);
      if (record === undefined) return undefined;
      const envelope = SecretEnvelope.safeParse(record.envelope);
      const stored = await db.get('vaultKeys', ref.profileId);
      const key = stored && VaultKeyRecord.safeParse(stored);
      if (!envelope.success || !key?.success || key.data.keyId !== envelope.data.keyId)
        throw new SecretUnreadableError(ref.owner, ref.slot);
      try {
        const plain = await cipher.decrypt(
          key.data.key,
          fromBase64(envelope.data.iv),
          fromBase64(envelope.data.ct),
          associatedData(ref),
        );
        return new TextDecoder().decode(plain);
      } catch {
        throw new SecretUnreadableError(ref.owner, ref.slot);
      }
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

    /** Clears every secret of one owner (a server being removed or signed out). */
    async clearOwner(profileId: string, owner: string): Promise<void> {
      await writeTransaction(db, ['credentials'], async (tx) => {
        const store = tx.objectStore('credentials');
        for (const key of await store.index('byOwner').getAllKeys([profileId, owner])) await store.delete(key);
      });
      bus.publish({ store: 'credentials', profileId, key: owner });
    },

    /** Forgets the cached key of a profile (after the profile was deleted). */
    forgetKey(profileId: string): void {
      keys.delete(profileId);
    },
  };
}
export type Vault = ReturnType<typeof createVault>;

function associatedData(ref: SecretRef): Uint8Array {
  return new TextEncoder().encode(`mcp-agent-vault\u0000${ref.profileId}\u0000${ref.owner}\u0000${ref.slot}`);
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}
