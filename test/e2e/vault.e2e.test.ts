/** The token vault in real Chromium: no plaintext at rest, a non-extractable key, and decryption after a reload. */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startViteServer, type LaunchedChromium, type StartedViteServer } from './browser';
import type { RecordDump } from './harness/vault-harness';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HARNESS_PATH = '/test/e2e/harness/vault.html';

let vite: StartedViteServer | undefined;
let browser: LaunchedChromium | undefined;
let page: Page;

async function openHarness(): Promise<void> {
  await page.waitForFunction(() => window.vaultHarness !== undefined || window.vaultHarnessError !== undefined);
  const error = await page.evaluate(() => window.vaultHarnessError);
  if (error !== undefined) throw new Error(`vault harness failed to start: ${error}`);
}

/** The forms a leaked secret could take in a dump: as is, base64 at each of the 3 byte alignments, hex. */
function encodingsOf(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  // Starting at byte 0, 1 or 2 puts that byte at the start of a base64 group; the last char may mix in what follows.
  const base64At = (offset: number) => bytes.subarray(offset).toString('base64').replace(/=+$/, '').slice(0, -1);
  const hex = bytes.toString('hex');
  return [secret, base64At(0), base64At(1), base64At(2), hex, hex.toUpperCase()];
}

function containsSecret(text: string, secret: string): boolean {
  return encodingsOf(secret).some((encoding) => text.includes(encoding));
}

describe('token vault in Chromium', () => {
  const secret = `sk-ant-e2e-${randomBytes(18).toString('base64url')}`;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    vite = await startViteServer({ root: REPO_ROOT, entries: [HARNESS_PATH.slice(1)] });
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${vite.url}${HARNESS_PATH}`);
    await openHarness();
  });

  afterAll(async () => {
    await browser?.close();
    await vite?.close();
  });

  it('has a leak check that sees the secret in base64 or hex at any position', () => {
    for (const prefix of ['', 'a', 'ab', 'abc']) {
      const embedded = Buffer.from(`${prefix}${secret}!?`, 'utf8');
      expect(containsSecret(embedded.toString('base64'), secret)).toBe(true);
      expect(containsSecret(embedded.toString('hex'), secret)).toBe(true);
    }
    expect(containsSecret(JSON.stringify({ value: secret }), secret)).toBe(true);
  });

  it('has a record dump that reaches every database, as text and as bytes', async () => {
    const canary = `canary-${randomBytes(9).toString('base64url')}`;
    const serialized = await page.evaluate(async (text) => {
      const done = <T>(req: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error ?? new Error('request failed'));
        });
      const open = indexedDB.open('e2e-canary', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('things', { autoIncrement: true });
      const db = await done(open);
      const store = db.transaction('things', 'readwrite').objectStore('things');
      await Promise.all([done(store.add({ text })), done(store.add(new TextEncoder().encode(text).buffer))]);
      db.close();
      const dump = JSON.stringify(await window.vaultHarness!.dumpAllRecords());
      await done(indexedDB.deleteDatabase('e2e-canary'));
      return dump;
    }, canary);
    expect(serialized).toContain(`"text":"${canary}"`);
    expect(serialized).toContain(Buffer.from(canary).toString('hex'));
  });

  it('stores the API key with no plaintext in any IndexedDB record', async () => {
    await page.evaluate((value) => window.vaultHarness!.putApiKey(value), secret);

    const dump: RecordDump = await page.evaluate(() => window.vaultHarness!.dumpAllRecords());
    const serialized = JSON.stringify(dump);
    expect(containsSecret(serialized, secret)).toBe(false);

    const databases = Object.values(dump);
    const credentials = databases.flatMap((stores) => stores.credentials ?? []);
    expect(credentials).toHaveLength(1);
    const envelope = (credentials[0]?.value as { owner?: unknown; envelope?: unknown }).envelope as Record<
      string,
      unknown
    >;
    expect(credentials[0]?.value).toMatchObject({ owner: 'app:anthropic', slot: 'api-key' });
    expect(Object.keys(envelope).sort()).toEqual(['alg', 'ct', 'iv', 'keyId', 'v']);
    expect(envelope).toMatchObject({ v: 1, alg: 'AES-GCM-256', keyId: expect.any(String) as string });
    expect(Buffer.from(envelope.iv as string, 'base64')).toHaveLength(12);
    // AES-GCM: the ciphertext is as long as the plaintext, plus a 16-byte tag.
    expect(Buffer.from(envelope.ct as string, 'base64')).toHaveLength(Buffer.byteLength(secret) + 16);

    const vaultKeys = databases.flatMap((stores) => stores.vaultKeys ?? []);
    expect(vaultKeys).toHaveLength(1);
    expect(vaultKeys[0]?.value).toMatchObject({
      keyId: envelope.keyId,
      key: { $type: 'CryptoKey', type: 'secret', extractable: false, algorithm: { name: 'AES-GCM', length: 256 } },
    });
  });

  it('keeps the vault key non-extractable', async () => {
    const info = await page.evaluate(() => window.vaultHarness!.keyInfo());
    expect(info).toMatchObject({ type: 'secret', extractable: false, algorithm: { name: 'AES-GCM', length: 256 } });
    expect([...info.usages].sort()).toEqual(['decrypt', 'encrypt']);
    expect(info.exportRawError).toBe('InvalidAccessError');
    expect(info.exportJwkError).toBe('InvalidAccessError');
  });

  it('decrypts the API key after a page reload', async () => {
    await page.reload();
    await openHarness();
    expect(await page.evaluate(() => window.vaultHarness!.getApiKey())).toBe(secret);

    const serialized = JSON.stringify(await page.evaluate(() => window.vaultHarness!.dumpAllRecords()));
    expect(containsSecret(serialized, secret)).toBe(false);
  });

  it('leaves localStorage and sessionStorage without the key', async () => {
    const webStorage = await page.evaluate(() => {
      const entries = (storage: Storage) =>
        Array.from({ length: storage.length }, (_, i) => {
          const key = storage.key(i) ?? '';
          return [key, storage.getItem(key)];
        });
      return JSON.stringify({ local: entries(localStorage), session: entries(sessionStorage) });
    });
    expect(containsSecret(webStorage, secret)).toBe(false);
    expect(JSON.parse(webStorage)).toEqual({ local: [], session: [] });
  });

  it('raised no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
