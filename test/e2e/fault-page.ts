/** Helpers of the browser fault suite (faults/faults.e2e.test.ts) that need nothing of its state but a page. */
import type { Page } from 'playwright-core';
import { dumpIndexedDb } from './idb-dump';

/** The thread's messages as stored in IndexedDB, read with the raw API. */
export async function storedMessages(
  page: Page,
  threadTitle: string,
): Promise<{ role: string; status: string; text: string; error?: string }[]> {
  const dump = JSON.parse(await dumpIndexedDb(page)) as Record<string, { value: Record<string, unknown> }[]>;
  const thread = dump['mcp-agent/threads']?.find((t) => t.value.title === threadTitle)?.value;
  return (dump['mcp-agent/messages'] ?? [])
    .map(
      (m) =>
        m.value as {
          threadId: string;
          seq: number;
          role: string;
          status: string;
          error?: string;
          blocks: { type: string; text?: string }[];
        },
    )
    .filter((m) => m.threadId === thread?.id)
    .sort((a, b) => a.seq - b.seq)
    .map((m) => ({
      role: m.role,
      status: m.status,
      text: m.blocks.map((b) => b.text ?? '').join(''),
      ...(m.error ? { error: m.error } : {}),
    }));
}

/** In the page: writes random bytes to a database of its own until the browser refuses for lack of space; returns the bytes written. */
export async function fillStorage(): Promise<number> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('disk-filler', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('chunks');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('open failed'));
  });
  const write = (size: number, key: number) =>
    new Promise<boolean>((resolve) => {
      const bytes = new Uint8Array(size);
      for (let at = 0; at < size; at += 65_536) crypto.getRandomValues(bytes.subarray(at, Math.min(at + 65_536, size)));
      const tx = db.transaction('chunks', 'readwrite');
      tx.objectStore('chunks').put(bytes, key);
      tx.oncomplete = () => resolve(true);
      tx.onabort = () => resolve(false);
    });
  let written = 0;
  let key = 0;
  for (const size of [500_000, 100_000, 20_000, 5_000]) {
    for (let i = 0; i < 100 && (await write(size, key++)); i++) written += size;
  }
  db.close();
  return written;
}
