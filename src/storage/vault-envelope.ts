import { z } from 'zod';
import { SecretUnreadableError } from '../domain/errors';
import type { Cipher } from '../platform/web-crypto';
import { fromBase64, toBase64 } from './base64';
import type { UsableKey } from './vault-keys';

/** Where a secret belongs: a profile, an owner (a server id, or an app owner) and a slot ("bearer", ...). */
export interface SecretRef {
  readonly profileId: string;
  readonly owner: string;
  readonly slot: string;
}

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

/** Encrypts a secret for one record address under `key`. */
export async function seal(cipher: Cipher, key: UsableKey, ref: SecretRef, secret: string): Promise<SecretEnvelope> {
  const { iv, ciphertext } = await cipher.encrypt(key.key, new TextEncoder().encode(secret), associatedData(ref));
  return { v: ENVELOPE_VERSION, keyId: key.keyId, alg: cipher.algorithm, iv: toBase64(iv), ct: toBase64(ciphertext) };
}

/** Decrypts a stored envelope; SecretUnreadableError (never the secret) when it is not this key's or was altered. */
export async function open(cipher: Cipher, key: UsableKey, stored: unknown, ref: SecretRef): Promise<string> {
  const envelope = SecretEnvelope.safeParse(stored);
  if (!envelope.success || envelope.data.keyId !== key.keyId) throw new SecretUnreadableError(ref.owner, ref.slot);
  try {
    const plain = await cipher.decrypt(
      key.key,
      fromBase64(envelope.data.iv),
      fromBase64(envelope.data.ct),
      associatedData(ref),
    );
    return new TextDecoder().decode(plain);
  } catch {
    throw new SecretUnreadableError(ref.owner, ref.slot);
  }
}

function associatedData(ref: SecretRef): Uint8Array {
  return new TextEncoder().encode(`mcp-agent-vault\u0000${ref.profileId}\u0000${ref.owner}\u0000${ref.slot}`);
}
