/** Test page: the real storage layer in real Chromium, driven by test/e2e/vault.e2e.test.ts through window.vaultHarness. */
import { createBackgroundSlices } from '../../../src/platform/background-slices';
import { createChangeBus } from '../../../src/platform/change-bus';
import { openAppDatabase } from '../../../src/platform/database';
import { createBrowserEnv } from '../../../src/platform/environment';
import { createWebCipher } from '../../../src/platform/web-crypto';
import { createStorage } from '../../../src/storage/storage';
import { MODEL_API_OWNER, type SecretRef } from '../../../src/storage/vault';

/** A value as read from IndexedDB, made JSON-safe: bytes as hex, CryptoKeys as their public properties. */
export type Dumped = null | boolean | number | string | Dumped[] | { [key: string]: Dumped };

/** Every database → every object store → every record, read with the raw IndexedDB API. */
export type RecordDump = Record<string, Record<string, { key: Dumped; value: Dumped }[]>>;

export interface KeyInfo {
  readonly profileId: string;
  readonly type: string;
  readonly extractable: boolean;
  readonly algorithm: Dumped;
  readonly usages: string[];
  /** The DOMException name each export attempt rejected with, or null when the export succeeded. */
  readonly exportRawError: string | null;
  readonly exportJwkError: string | null;
}

export interface VaultHarness {
  putApiKey(secret: string): Promise<void>;
  getApiKey(): Promise<string | undefined>;
  dumpAllRecords(): Promise<RecordDump>;
  keyInfo(): Promise<KeyInfo>;
}

declare global {
  interface Window {
    vaultHarness?: VaultHarness;
    vaultHarnessError?: string;
  }
}

const API_KEY_SLOT = 'api-key';

async function setUp(): Promise<VaultHarness> {
  const env = createBrowserEnv();
  const db = await openAppDatabase(env.indexedDB);
  const storage = createStorage({
    db,
    bus: createChangeBus(env.openChannel('mcp-agent-changes')),
    cipher: createWebCipher(env.crypto),
    now: env.now,
    newId: env.newId,
    slices: createBackgroundSlices(),
  });
  const profile = await storage.profiles.ensureActive();
  const ref: SecretRef = { profileId: profile.id, owner: MODEL_API_OWNER, slot: API_KEY_SLOT };

  return {
    putApiKey: (secret) => storage.vault.put(ref, secret),
    getApiKey: () => storage.vault.get(ref),
    dumpAllRecords: () => dumpAllRecords(env.indexedDB),
    async keyInfo() {
      const record = await db.get('vaultKeys', profile.id);
      const key = record?.key;
      if (!key) throw new Error(`no unwrapped vault key stored for profile ${profile.id}`);
      return {
        profileId: profile.id,
        type: key.type,
        extractable: key.extractable,
        algorithm: await dump(key.algorithm),
        usages: [...key.usages],
        exportRawError: await exportError(env.crypto, 'raw', key),
        exportJwkError: await exportError(env.crypto, 'jwk', key),
      };
    },
  };
}

async function exportError(crypto: Crypto, format: 'raw' | 'jwk', key: CryptoKey): Promise<string | null> {
  try {
    await crypto.subtle.exportKey(format, key);
    return null;
  } catch (error) {
    return error instanceof Error ? error.name : String(error);
  }
}

async function dumpAllRecords(indexedDB: IDBFactory): Promise<RecordDump> {
  const result: RecordDump = {};
  for (const info of await indexedDB.databases()) {
    if (!info.name) continue;
    const db = await request(indexedDB.open(info.name));
    try {
      const stores: RecordDump[string] = {};
      for (const storeName of Array.from(db.objectStoreNames)) {
        const store = db.transaction(storeName, 'readonly').objectStore(storeName);
        // Both handlers attach before either request can settle.
        const [keys, values] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
        const records: RecordDump[string][string] = [];
        for (const [index, value] of values.entries())
          records.push({ key: await dump(keys[index]), value: await dump(value) });
        stores[storeName] = records;
      }
      result[info.name] = stores;
    } finally {
      db.close();
    }
  }
  return result;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function dump(value: unknown): Promise<Dumped> {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return { $type: 'bigint', value: value.toString() };
  if (value instanceof ArrayBuffer) return { $type: 'bytes', hex: hex(new Uint8Array(value)) };
  if (ArrayBuffer.isView(value))
    return { $type: 'bytes', hex: hex(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)) };
  if (value instanceof Blob) return { $type: 'blob', hex: hex(new Uint8Array(await value.arrayBuffer())) };
  if (value instanceof CryptoKey) {
    return {
      $type: 'CryptoKey',
      type: value.type,
      extractable: value.extractable,
      algorithm: await dump(value.algorithm),
      usages: [...value.usages],
    };
  }
  if (value instanceof Date) return { $type: 'date', iso: value.toISOString() };
  if (value instanceof Map) return { $type: 'map', entries: await dump([...value.entries()]) };
  if (value instanceof Set) return { $type: 'set', values: await dump([...value.values()]) };
  if (Array.isArray(value)) return Promise.all(value.map(dump));
  if (typeof value === 'object') {
    const out: Record<string, Dumped> = {};
    // for...in also reaches fields that a platform object keeps on its prototype.
    for (const field in value) out[field] = await dump((value as Record<string, unknown>)[field]);
    return out;
  }
  return { $type: typeof value };
}

const status = document.getElementById('status');
setUp().then(
  (harness) => {
    window.vaultHarness = harness;
    if (status) status.textContent = 'ready';
  },
  (error: unknown) => {
    window.vaultHarnessError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    if (status) status.textContent = `failed: ${window.vaultHarnessError}`;
  },
);
