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
}

/** A Cipher on WebCrypto's SubtleCrypto. */
export function createWebCipher(crypto: Crypto): Cipher {
  const subtle = crypto.subtle;
  return {
    algorithm: 'AES-GCM-256',
    generateKey: () => subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']),
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
  };
}

function toBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.slice().buffer;
}
