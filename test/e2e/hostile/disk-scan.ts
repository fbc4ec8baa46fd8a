/** Reading a Chromium profile's IndexedDB files as someone with the disk would, without opening a browser. */
import { createDecipheriv } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Every file Chromium keeps IndexedDB in under a profile directory (LevelDB logs, tables, blobs). */
export async function indexedDbFiles(userDataDir: string): Promise<Buffer[]> {
  const root = join(userDataDir, 'Default', 'IndexedDB');
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return Promise.all(entries.filter((e) => e.isFile()).map((e) => readFile(join(e.parentPath, e.name))));
}

/** Whether `secret` is in any file as UTF-8 / Latin-1 or UTF-16 (V8's two string encodings). */
export function plaintextOnDisk(files: readonly Buffer[], secret: string): boolean {
  const forms = [Buffer.from(secret, 'latin1'), Buffer.from(secret, 'utf16le')];
  return files.some((file) => forms.some((form) => file.includes(form)));
}

export interface StoredEnvelope {
  readonly iv: string;
  readonly ct: string;
  /** The associated data the vault binds in: "mcp-agent-vault\0<profile>\0<owner>\0<slot>". */
  readonly associatedData: string;
}

/**
 * The attack: try every 32-byte window of every file as the AES-256-GCM key of `envelope`.
 * Resolves to the plaintext when a window decrypts it (the tag checks out), undefined otherwise.
 */
export function recoverWithKeyFromDisk(files: readonly Buffer[], envelope: StoredEnvelope): string | undefined {
  const iv = Buffer.from(envelope.iv, 'base64');
  const sealed = Buffer.from(envelope.ct, 'base64');
  const tag = sealed.subarray(sealed.length - 16);
  const ciphertext = sealed.subarray(0, sealed.length - 16);
  const aad = Buffer.from(envelope.associatedData, 'utf8');
  for (const file of files)
    for (let offset = 0; offset + 32 <= file.length; offset++) {
      const decipher = createDecipheriv('aes-256-gcm', file.subarray(offset, offset + 32), iv);
      decipher.setAAD(aad);
      decipher.setAuthTag(tag);
      const plain = decipher.update(ciphertext);
      try {
        return Buffer.concat([plain, decipher.final()]).toString('utf8');
      } catch {
        // Not the key: the tag does not match.
      }
    }
  return undefined;
}
