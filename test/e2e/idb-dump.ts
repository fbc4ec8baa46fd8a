/** Reads every record of every IndexedDB database of a page with the raw API, as one JSON string. */
import type { Page } from 'playwright-core';

export async function dumpIndexedDb(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const settle = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error ?? new Error('request failed'));
      });
    // Bytes as hex, CryptoKeys by their public properties: a secret in any binary field would still show.
    const plain = (value: unknown): unknown => {
      if (value instanceof ArrayBuffer)
        return [...new Uint8Array(value)].map((b) => b.toString(16).padStart(2, '0')).join('');
      if (ArrayBuffer.isView(value))
        return plain(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
      if (value instanceof CryptoKey) return { type: value.type, extractable: value.extractable };
      if (Array.isArray(value)) return value.map(plain);
      if (value && typeof value === 'object')
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
      return value;
    };
    const out: Record<string, unknown> = {};
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await settle(indexedDB.open(info.name));
      for (const name of Array.from(db.objectStoreNames)) {
        const store = db.transaction(name, 'readonly').objectStore(name);
        const [keys, values] = await Promise.all([settle(store.getAllKeys()), settle(store.getAll())]);
        out[`${info.name}/${name}`] = values.map((value, i) => ({ key: plain(keys[i]), value: plain(value) }));
      }
      db.close();
    }
    return JSON.stringify(out);
  });
}
