import { serialize } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import { VaultLockedError, WrongPassphraseError } from '../domain/errors';
import { MODEL_API_OWNER } from './vault';
import { PASSPHRASE_ITERATIONS } from './vault-keys';

let opened: TestStorage[] = [];
afterEach(() => {
  opened.forEach((s) => s.close());
  opened = [];
});

const PASSPHRASE = 'correct horse battery staple';
const API_KEY = 'sk-ant-api03-locked-away-from-the-disk';
const TOKEN = 'bearer-token-of-weather';

/** Storage whose clock the test moves; a profile with an API key and a server token stored before any passphrase. */
async function setup(options: Parameters<typeof openTestStorage>[0] = {}) {
  let clock = 1_000_000;
  const test = await openTestStorage({ now: () => clock, ...options });
  opened.push(test);
  const { storage } = test;
  const profile = await storage.profiles.ensureActive();
  const apiKey = { profileId: profile.id, owner: MODEL_API_OWNER, slot: 'api-key' };
  const token = { profileId: profile.id, owner: 'weather', slot: 'bearer' };
  await storage.vault.put(apiKey, API_KEY);
  await storage.vault.put(token, TOKEN);
  return {
    ...test,
    vault: storage.vault,
    profileId: profile.id,
    apiKey,
    token,
    advance: (ms: number) => (clock += ms),
  };
}

/** Every record of every object store, as the structured-clone bytes IndexedDB keeps (v8 refuses a CryptoKey). */
async function dumpDatabase(test: TestStorage): Promise<Buffer> {
  const records: unknown[] = [];
  for (const store of test.db.objectStoreNames) records.push(store, await test.db.getAll(store));
  return serialize(records);
}

/** The raw data key, recovered the way an attacker who knows the passphrase would: PBKDF2, then AES-GCM unwrap. */
async function rawDataKey(test: TestStorage, profileId: string, passphrase: string): Promise<Uint8Array> {
  const record = (await test.db.get('vaultKeys', profileId)) as { wrapped: Record<string, string> };
  const { salt, iv, key } = record.wrapped;
  const material = await crypto.subtle.importKey('raw', new TextEncoder().encode(passphrase), 'PBKDF2', false, [
    'deriveKey',
  ]);
  const kek = await crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: bytes(salt!), iterations: PASSPHRASE_ITERATIONS },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['decrypt'],
  );
  return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes(iv!) }, kek, bytes(key!)));
}

const bytes = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));

function containsBytes(haystack: Buffer, needle: Uint8Array | string): boolean {
  if (typeof needle !== 'string') return haystack.includes(Buffer.from(needle));
  return [Buffer.from(needle, 'utf8'), Buffer.from(needle, 'utf16le'), Buffer.from(btoa(needle).slice(0, 16))].some(
    (form) => haystack.includes(form),
  );
}

describe('a passphrase on the vault', () => {
  it('keeps every secret readable after it is set, stores only the wrapped key, and locks on demand', async () => {
    const { vault, db, profileId, apiKey, token } = await setup();
    await vault.setPassphrase(profileId, PASSPHRASE);
    expect(await vault.status(profileId)).toEqual({ kind: 'unlocked', autoLockMinutes: 15 });
    expect(await vault.get(apiKey)).toBe(API_KEY);
    expect(await vault.get(token)).toBe(TOKEN);
    const keyRecord = await db.get('vaultKeys', profileId);
    expect(keyRecord?.key).toBeUndefined();
    expect(keyRecord?.wrapped).toMatchObject({ kdf: 'PBKDF2-SHA256', iterations: 600_000, alg: 'AES-GCM-256' });

    vault.lock(profileId);
    expect(await vault.status(profileId)).toEqual({ kind: 'locked', autoLockMinutes: 15 });
    await expect(vault.get(apiKey)).rejects.toBeInstanceOf(VaultLockedError);
    await expect(vault.get(apiKey)).rejects.toThrow('Locked: enter your passphrase.');
    await expect(vault.put(token, 'new')).rejects.toBeInstanceOf(VaultLockedError);
    expect(await vault.has(apiKey)).toBe(true); // Settings can still say a key is stored.
  });

  it('unlocks with the passphrase; a wrong one is refused with a clear message and leaves it locked', async () => {
    const { vault, profileId, apiKey } = await setup();
    await vault.setPassphrase(profileId, PASSPHRASE);
    vault.lock(profileId);
    const wrong = vault.unlock(profileId, 'correct horse battery stapler');
    await expect(wrong).rejects.toBeInstanceOf(WrongPassphraseError);
    await expect(wrong).rejects.toThrow('Wrong passphrase');
    await expect(vault.get(apiKey)).rejects.toBeInstanceOf(VaultLockedError);
    await vault.unlock(profileId, PASSPHRASE);
    expect(await vault.get(apiKey)).toBe(API_KEY);
  });

  it('locks itself after the idle minutes set, counted on the injected clock; use and activity keep it open', async () => {
    const { vault, profileId, apiKey, advance } = await setup();
    await vault.setPassphrase(profileId, PASSPHRASE, 5);
    advance(4 * 60_000);
    expect(await vault.get(apiKey)).toBe(API_KEY); // use restarts the count
    advance(4 * 60_000);
    vault.noteActivity(profileId);
    advance(4 * 60_000);
    expect(vault.lockIfIdle()).toBe(false);
    expect(await vault.get(apiKey)).toBe(API_KEY);
    advance(5 * 60_000);
    expect(vault.lockIfIdle()).toBe(true);
    expect(await vault.status(profileId)).toMatchObject({ kind: 'locked' });
    await expect(vault.get(apiKey)).rejects.toBeInstanceOf(VaultLockedError);

    await vault.unlock(profileId, PASSPHRASE);
    await vault.setAutoLock(profileId, 0); // never
    advance(24 * 60 * 60_000);
    expect(vault.lockIfIdle()).toBe(false);
    expect(await vault.get(apiKey)).toBe(API_KEY);
  });

  it('an idle vault is locked on its next use even when no timer ran', async () => {
    const { vault, profileId, apiKey, advance } = await setup();
    await vault.setPassphrase(profileId, PASSPHRASE, 1);
    advance(60_000);
    await expect(vault.get(apiKey)).rejects.toBeInstanceOf(VaultLockedError);
  });

  it('removing the passphrase needs it, re-encrypts every secret and stores a non-extractable key again', async () => {
    const { vault, db, profileId, apiKey, token } = await setup();
    await vault.setPassphrase(profileId, PASSPHRASE);
    vault.lock(profileId);
    await expect(vault.removePassphrase(profileId, 'nope')).rejects.toBeInstanceOf(WrongPassphraseError);
    await vault.removePassphrase(profileId, PASSPHRASE);
    expect(await vault.status(profileId)).toEqual({ kind: 'no-passphrase' });
    expect((await db.get('vaultKeys', profileId))?.key?.extractable).toBe(false);
    expect(await vault.get(apiKey)).toBe(API_KEY);
    expect(await vault.get(token)).toBe(TOKEN);
  });

  it('forgetting the passphrase erases the secrets and the key, and nothing else', async () => {
    const { vault, db, storage, profileId, apiKey } = await setup();
    const thread = await storage.threads.create(profileId, { title: 'Kept' });
    await vault.setPassphrase(profileId, PASSPHRASE);
    vault.lock(profileId);
    await vault.forgetPassphrase(profileId);
    expect(await vault.status(profileId)).toEqual({ kind: 'no-passphrase' });
    expect(await db.count('credentials')).toBe(0);
    expect(await vault.get(apiKey)).toBeUndefined();
    expect((await storage.threads.get(thread.id))?.title).toBe('Kept');
    await vault.put(apiKey, 'sk-ant-new'); // a new key can be entered at once
    expect(await vault.get(apiKey)).toBe('sk-ant-new');
  });

  it("locks only this profile: another profile's secrets stay usable, and cannot unwrap the locked one's", async () => {
    const { vault, storage, profileId, apiKey } = await setup();
    const other = await storage.profiles.create({ name: 'Other' });
    const otherRef = { profileId: other.id, owner: MODEL_API_OWNER, slot: 'api-key' };
    await vault.put(otherRef, 'sk-ant-other');
    await vault.setPassphrase(profileId, PASSPHRASE);
    vault.lock(profileId);
    expect(await vault.get(otherRef)).toBe('sk-ant-other');
    await expect(vault.get(apiKey)).rejects.toBeInstanceOf(VaultLockedError);
  });

  it('setting a passphrase also moves an API key still under the old owner "anthropic" to the app owner', async () => {
    const { vault, profileId, apiKey } = await setup();
    const legacy = { profileId, owner: 'anthropic', slot: 'api-key' };
    await vault.delete(apiKey);
    await vault.put(legacy, API_KEY);
    await vault.setPassphrase(profileId, PASSPHRASE);
    expect(await vault.has(legacy)).toBe(false);
    expect(await vault.get(apiKey)).toBe(API_KEY);
  });

  it('a lock in one tab locks the other tabs; an unlock does not travel', async () => {
    const channelName = `vault-tabs-${crypto.randomUUID()}`;
    const first = await setup({ name: channelName, channelName });
    const second = await openTestStorage({ factory: first.factory, name: channelName, channelName });
    opened.push(second);
    await first.vault.setPassphrase(first.profileId, PASSPHRASE);
    expect(await second.storage.vault.status(first.profileId)).toMatchObject({ kind: 'locked' });
    await second.storage.vault.unlock(first.profileId, PASSPHRASE);
    expect(await second.storage.vault.get(first.apiKey)).toBe(API_KEY);
    first.vault.lock(first.profileId);
    await expect.poll(async () => (await second.storage.vault.status(first.profileId)).kind).toBe('locked');
    await expect(second.storage.vault.get(first.apiKey)).rejects.toBeInstanceOf(VaultLockedError);
  });

  it('while locked, no byte stored in IndexedDB holds the raw data key, a CryptoKey or a plaintext secret', async () => {
    const test = await setup();
    const { vault, profileId } = test;
    await vault.setPassphrase(profileId, PASSPHRASE);
    vault.lock(profileId);
    const dump = await dumpDatabase(test); // throws if any record still held a CryptoKey
    const raw = await rawDataKey(test, profileId, PASSPHRASE);
    expect(raw).toHaveLength(32);
    expect(containsBytes(dump, raw)).toBe(false);
    expect(containsBytes(dump, Buffer.from(raw).toString('base64'))).toBe(false);
    expect(containsBytes(dump, Buffer.from(raw).toString('hex'))).toBe(false);
    for (const secret of [API_KEY, TOKEN, PASSPHRASE]) expect(containsBytes(dump, secret)).toBe(false);
    // The dump is of the real thing: the wrapped key and the envelopes are in it.
    const wrappedKey = ((await test.db.get('vaultKeys', profileId)) as { wrapped: { key: string } }).wrapped.key;
    expect(containsBytes(dump, wrappedKey)).toBe(true);
  });

  it('without a passphrase the stored key is a CryptoKey in the database, as before (the threat model README states)', async () => {
    const test = await setup();
    await expect(dumpDatabase(test)).rejects.toThrow();
  });
});
