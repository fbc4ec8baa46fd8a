// The in-memory Storage answers as the IndexedDB one does: the same checks run against both.
import { describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError, VaultLockedError, WrongPassphraseError } from '../../src/domain/errors';
import type { Storage } from '../../src/storage/storage';
import { cleanupAfterEach } from './cleanup';
import { createMemoryStorage } from './memory-storage';
import { openTestStorage } from './test-storage';

const cleanup = cleanupAfterEach();

const kinds: [string, () => Promise<Storage>][] = [
  ['memory', async () => createMemoryStorage()],
  [
    'IndexedDB',
    async () => {
      const opened = await openTestStorage();
      cleanup(() => opened.close());
      return opened.storage;
    },
  ],
];

describe.each(kinds)('storage (%s)', (_kind, open) => {
  it('keeps profile names unique and never deletes the last profile', async () => {
    const storage = await open();
    const first = await storage.profiles.ensureActive();
    await expect(storage.profiles.create({ name: first.name.toUpperCase() })).rejects.toBeInstanceOf(ValidationError);
    await expect(storage.profiles.delete(first.id)).rejects.toBeInstanceOf(ValidationError);
    await expect(storage.profiles.update('nobody', (p) => p)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('orders messages, counts usage per profile, and marks a streaming answer interrupted', async () => {
    const storage = await open();
    const profile = await storage.profiles.ensureActive();
    const thread = await storage.threads.create(profile.id);
    const question = await storage.messages.append(thread.id, {
      role: 'user',
      blocks: [{ type: 'text', text: 'hi' }],
      status: 'complete',
    });
    const answer = await storage.messages.append(thread.id, { role: 'assistant', blocks: [], status: 'streaming' });
    expect([question.seq, answer.seq]).toEqual([0, 1]);
    expect(await storage.messages.markInterrupted(thread.id, 'tab closed')).toBe(1);
    expect((await storage.messages.list(thread.id)).items.map((m) => m.status)).toEqual(['complete', 'interrupted']);
    expect((await storage.usage.since(profile.id, 0)).length).toBe(2);
    await expect(storage.messages.append('no-thread', question)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses a second server of the same name in a profile', async () => {
    const storage = await open();
    const profile = await storage.profiles.ensureActive();
    const server = { id: 'weather', name: 'Weather', url: 'https://weather.example.test/mcp' };
    await storage.profiles.saveServer(profile.id, server);
    await expect(
      storage.profiles.saveServer(profile.id, { ...server, id: 'other', name: 'weather' }),
    ).rejects.toBeInstanceOf(ValidationError);
    await storage.profiles.removeServer(profile.id, 'weather');
    expect((await storage.profiles.listServers(profile.id)).items).toEqual([]);
  });

  it('vault: a locked profile refuses reads until the right passphrase', async () => {
    const storage = await open();
    const { id: profileId } = await storage.profiles.ensureActive();
    const ref = { profileId, owner: 'weather', slot: 'bearer' };
    await storage.vault.put(ref, 'token');
    await storage.vault.setPassphrase(profileId, 'correct horse battery', 15);
    storage.vault.lock(profileId);
    expect(await storage.vault.status(profileId)).toEqual({ kind: 'locked', autoLockMinutes: 15 });
    await expect(storage.vault.get(ref)).rejects.toBeInstanceOf(VaultLockedError);
    await expect(storage.vault.unlock(profileId, 'wrong one!')).rejects.toBeInstanceOf(WrongPassphraseError);
    await storage.vault.unlock(profileId, 'correct horse battery');
    expect(await storage.vault.get(ref)).toBe('token');
  });
});
