import { afterEach, describe, expect, it } from 'vitest';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import { SecretUnreadableError } from '../domain/errors';
import { MODEL_API_OWNER, SecretEnvelope } from './vault';

let opened: TestStorage[] = [];
async function open(...args: Parameters<typeof openTestStorage>) {
  const storage = await openTestStorage(...args);
  opened.push(storage);
  return storage;
}
afterEach(() => {
  opened.forEach((s) => s.close());
  opened = [];
});

const SECRET = 'sk-ant-api03-very-secret-value';

describe('token vault', () => {
  it('stores a secret as an AES-GCM envelope that does not contain the plaintext, and reads it back', async () => {
    const { storage, db } = await open();
    const profile = await storage.profiles.ensureActive();
    const ref = { profileId: profile.id, owner: MODEL_API_OWNER, slot: 'api-key' };
    await storage.vault.put(ref, SECRET);

    const records = await db.getAll('credentials');
    expect(records).toHaveLength(1);
    const envelope = SecretEnvelope.parse(records[0]?.envelope);
    expect(envelope).toMatchObject({ v: 1, alg: 'AES-GCM-256' });
    expect(JSON.stringify(records)).not.toContain(SECRET);
    expect(JSON.stringify(records)).not.toContain(btoa(SECRET).slice(0, 16));
    expect(await storage.vault.get(ref)).toBe(SECRET);
  });

  it('keeps a non-extractable 256-bit key per profile', async () => {
    const { storage, db } = await open();
    const a = await storage.profiles.create({ name: 'A' });
    const b = await storage.profiles.create({ name: 'B' });
    await storage.vault.put({ profileId: a.id, owner: 's1', slot: 'bearer' }, 'token-a');
    await storage.vault.put({ profileId: b.id, owner: 's1', slot: 'bearer' }, 'token-b');
    const keys = await db.getAll('vaultKeys');
    expect(keys.map((k) => k.profileId).sort()).toEqual([a.id, b.id].sort());
    for (const record of keys) {
      expect(record.key).toBeInstanceOf(CryptoKey);
      const key = record.key!;
      expect(key.extractable).toBe(false);
      expect(key.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 });
      await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
    }
  });

  it('uses a fresh IV for every encryption', async () => {
    const { storage, db } = await open();
    const profile = await storage.profiles.ensureActive();
    const ivs = new Set<string>();
    for (let i = 0; i < 5; i++) {
      await storage.vault.put({ profileId: profile.id, owner: 's', slot: `slot-${i}` }, SECRET);
    }
    for (const record of await db.getAll('credentials')) ivs.add(SecretEnvelope.parse(record.envelope).iv);
    expect(ivs.size).toBe(5);
  });

  it('refuses an envelope that was altered or moved to another record, without revealing the secret', async () => {
    const { storage, db } = await open();
    const profile = await storage.profiles.ensureActive();
    const bearer = { profileId: profile.id, owner: 'server-a', slot: 'bearer' };
    const other = { profileId: profile.id, owner: 'server-b', slot: 'bearer' };
    await storage.vault.put(bearer, SECRET);
    const [record] = await db.getAll('credentials');
    await db.put('credentials', { ...record!, owner: 'server-b' });
    const moved = storage.vault.get(other);
    await expect(moved).rejects.toBeInstanceOf(SecretUnreadableError);
    await expect(moved).rejects.not.toThrow(SECRET);

    const envelope = SecretEnvelope.parse(record!.envelope);
    const flipped = envelope.ct.startsWith('A') ? `B${envelope.ct.slice(1)}` : `A${envelope.ct.slice(1)}`;
    await db.put('credentials', { ...record!, envelope: { ...envelope, ct: flipped } });
    await expect(storage.vault.get(bearer)).rejects.toBeInstanceOf(SecretUnreadableError);
  });

  it("cannot read another profile's secret with its own key", async () => {
    const { storage, db } = await open();
    const a = await storage.profiles.create({ name: 'A' });
    const b = await storage.profiles.create({ name: 'B' });
    await storage.vault.put({ profileId: a.id, owner: 's', slot: 'bearer' }, SECRET);
    await storage.vault.put({ profileId: b.id, owner: 's', slot: 'bearer' }, 'other');
    const [recordA] = await db.getAllFromIndex('credentials', 'byProfile', a.id);
    await db.put('credentials', { ...recordA!, profileId: b.id });
    await expect(storage.vault.get({ profileId: b.id, owner: 's', slot: 'bearer' })).rejects.toBeInstanceOf(
      SecretUnreadableError,
    );
  });

  it('two tabs creating the first key at once end up sharing one key', async () => {
    const first = await open({ name: 'shared' });
    const second = await open({ name: 'shared', factory: first.factory });
    const profile = await first.storage.profiles.create({ name: 'P' });
    await Promise.all([
      first.storage.vault.put({ profileId: profile.id, owner: 's', slot: 'one' }, 'from-first'),
      second.storage.vault.put({ profileId: profile.id, owner: 's', slot: 'two' }, 'from-second'),
    ]);
    expect(await first.db.count('vaultKeys')).toBe(1);
    expect(await first.storage.vault.get({ profileId: profile.id, owner: 's', slot: 'two' })).toBe('from-second');
    expect(await second.storage.vault.get({ profileId: profile.id, owner: 's', slot: 'one' })).toBe('from-first');
  });

  it('clears all secrets of one server and leaves the others', async () => {
    const { storage } = await open();
    const { id: profileId } = await storage.profiles.ensureActive();
    await storage.vault.put({ profileId, owner: 'a', slot: 'bearer' }, '1');
    await storage.vault.put({ profileId, owner: 'a', slot: 'header:X-Key' }, '2');
    await storage.vault.put({ profileId, owner: 'b', slot: 'bearer' }, '3');
    await storage.vault.clearOwner(profileId, 'a');
    expect(await storage.vault.get({ profileId, owner: 'a', slot: 'bearer' })).toBeUndefined();
    expect(await storage.vault.has({ profileId, owner: 'a', slot: 'header:X-Key' })).toBe(false);
    expect(await storage.vault.get({ profileId, owner: 'b', slot: 'bearer' })).toBe('3');
  });

  it("deleting a profile deletes its key and credentials, and no other profile's", async () => {
    const { storage, db } = await open();
    const a = await storage.profiles.create({ name: 'A' });
    const b = await storage.profiles.create({ name: 'B' });
    await storage.vault.put({ profileId: a.id, owner: MODEL_API_OWNER, slot: 'api-key' }, 'a-key');
    await storage.vault.put({ profileId: b.id, owner: MODEL_API_OWNER, slot: 'api-key' }, 'b-key');
    await storage.profiles.delete(a.id);
    expect(await db.get('vaultKeys', a.id)).toBeUndefined();
    expect(await db.getAllFromIndex('credentials', 'byProfile', a.id)).toEqual([]);
    expect(await storage.vault.get({ profileId: b.id, owner: MODEL_API_OWNER, slot: 'api-key' })).toBe('b-key');
  });
});
