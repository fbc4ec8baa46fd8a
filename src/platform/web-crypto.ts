/** Authenticated encryption with a key the page cannot export (AES-GCM, 256-bit, 96-bit IV). */
export interface Cipher {
  readonly algorithm: 'AES-GCM-256';
  generateKey(): Promise<CryptoKey>;
  encrypt(
    key: CryptoKey,
    plaintext: Uint8Array,
    additionalData: Uint8Array,
  ): Promise<{ iv: Uint8Array; ciphertext: Uint8Array }>;
  /** Rejects when the key is wrong or the data or associated data were altered. */
  decrypt(key: CryptoKey, iv: Uint8Array, ciphertext: Uint8Array, additionalData: Uint8Array): Promise<Uint8Array>;
  sha256Hex(text: string): Promise<string>;
  randomBytes(length: number): Uint8Array;
  /** A key-wrapping key from a passphrase (PBKDF2-SHA256); it can only wrap and unwrap, never be exported. */
  deriveWrappingKey(passphrase: string, salt: Uint8Array, iterations: number): Promise<CryptoKey>;
  /** A fresh data key, its raw bytes wrapped (AES-GCM) under `wrappingKey`; the key returned is non-extractable. */
  newWrappedKey(wrappingKey: CryptoKey): Promise<{ key: CryptoKey; iv: Uint8Array; wrapped: Uint8Array }>;
  /** Rejects when the wrapping key is wrong (a wrong passphrase) or the wrapped bytes were altered. */
  unwrapKey(wrappingKey: CryptoKey, iv: Uint8Array, wrapped: Uint8Array): Promise<CryptoKey>;
}

const DATA_KEY = { name: 'AES-GCM', length: 256 } as const;
const DATA_KEY_USAGES: KeyUsage[] = ['encrypt', 'decrypt'];

/** A Cipher on WebCrypto's SubtleCrypto. */
export function createWebCipher(crypto: Crypto): Cipher {
  const subtle = crypto.subtle;
  const unwrapKey = (wrappingKey: CryptoKey, iv: Uint8Array, wrapped: Uint8Array) =>
    subtle.unwrapKey(
      'raw',
      toBuffer(wrapped),
      wrappingKey,
      { name: 'AES-GCM', iv: toBuffer(iv) },
      DATA_KEY,
      false,
      DATA_KEY_USAGES,
    );
  return {
    algorithm: 'AES-GCM-256',
    generateKey: () => subtle.generateKey(DATA_KEY, false, DATA_KEY_USAGES),
    async encrypt(key, plaintext, additionalData) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const ciphertext = await subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: toBuffer(additionalData) },
        key,
        toBuffer(plaintext),
      );
      return { iv, ciphertext: new Uint8Array(ciphertext) };
    },
    async decrypt(key, iv, ciphertext, additionalData) {
      const plain = await subtle.decrypt(
        { name: 'AES-GCM', iv: toBuffer(iv), additionalData: toBuffer(additionalData) },
        key,
        toBuffer(ciphertext),
      );
      return new Uint8Array(plain);
    },
    async sha256Hex(text) {
      const digest = await subtle.digest('SHA-256', new TextEncoder().encode(text));
      return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
    },
    randomBytes: (length) => crypto.getRandomValues(new Uint8Array(length)),
    async deriveWrappingKey(passphrase, salt, iterations) {
      const material = await subtle.importKey('raw', new TextEncoder().encode(passphrase), 'PBKDF2', false, [
        'deriveKey',
      ]);
      return subtle.deriveKey(
        { name: 'PBKDF2', hash: 'SHA-256', salt: toBuffer(salt), iterations },
        material,
        { name: 'AES-GCM', length: 256 },
        false,
        ['wrapKey', 'unwrapKey'],
      );
    },
    async newWrappedKey(wrappingKey) {
      // Extractable only long enough to be wrapped; the copy kept in memory is unwrapped as non-extractable.
      const extractable = await subtle.generateKey(DATA_KEY, true, DATA_KEY_USAGES);
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const wrapped = new Uint8Array(await subtle.wrapKey('raw', extractable, wrappingKey, { name: 'AES-GCM', iv }));
      return { key: await unwrapKey(wrappingKey, iv, wrapped), iv, wrapped };
    },
    unwrapKey,
  };
}

function toBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.slice().buffer;
}
