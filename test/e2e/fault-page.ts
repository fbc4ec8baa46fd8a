/** Helpers of the browser fault suite (faults/faults.e2e.test.ts) that need nothing of its state but a page. */
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
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

/**
 * A throwaway in-memory Chromium whose origin `origin` gets a real storage quota of `quotaBytes` (enforced by
 * Chromium's storage itself), with `appConfig` served as the deployer's file. `quota` is the DevTools session that set
 * it, on a page of its own that stays open.
 */
export async function launchQuotaBrowser(
  origin: string,
  quotaBytes: number,
  appConfig: unknown,
): Promise<{ browser: Browser; context: BrowserContext; quota: CDPSession }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    // No service worker (as launchChromium in browser.ts): its copy of the app would take most of a small quota, and
    // answer requests the routes here are meant to see.
    const context = await browser.newContext({ serviceWorkers: 'block' });
    await context.route('**/app-config.json', (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify(appConfig) }),
    );
    // It must be set before the origin stores anything.
    const quota = await context.newCDPSession(await context.newPage());
    await quota.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: quotaBytes });
    return { browser, context, quota };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** In the page: puts `record` into the app's messages store as is, in the thread titled `threadTitle` (as a bug or a hand edit in devtools could). */
export async function putRawMessage(input: { threadTitle: string; record: Record<string, unknown> }): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('mcp-agent');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('open failed'));
  });
  const done = <T>(request: IDBRequest<T>) =>
    new Promise<T>((resolve) => (request.onsuccess = () => resolve(request.result)));
  const tx = db.transaction(['threads', 'messages'], 'readwrite');
  const threads = await done(tx.objectStore('threads').getAll() as IDBRequest<{ id: string; title: string }[]>);
  const threadId = threads.find((t) => t.title === input.threadTitle)?.id;
  await done(tx.objectStore('messages').put({ ...input.record, threadId }));
  db.close();
}

/** In the page: every localStorage and sessionStorage entry, as JSON text. */
export function webStorageText(): string {
  const entries = (storage: Storage) =>
    Array.from({ length: storage.length }, (_, i) => [storage.key(i), storage.getItem(storage.key(i) ?? '')]);
  return JSON.stringify({ local: entries(localStorage), session: entries(sessionStorage) });
}
