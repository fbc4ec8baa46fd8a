import { afterEach, describe, expect, it } from 'vitest';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import { ValidationError } from '../domain/errors';

let opened: TestStorage | undefined;
afterEach(() => opened?.close());

const server = { id: 'weather', name: 'Weather', url: 'https://weather.example/mcp' };

describe('profiles and their servers', () => {
  it('creates a first profile on a fresh browser and remembers the active one', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const first = await storage.profiles.ensureActive();
    expect(first.name).toBe('Default');
    const second = await storage.profiles.create({ name: 'Sam' });
    await storage.profiles.setActiveId(second.id);
    expect((await storage.profiles.ensureActive()).id).toBe(second.id);
    expect((await storage.profiles.list()).items).toHaveLength(2);
  });

  it('updates preferences atomically and validates them', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const profile = await storage.profiles.ensureActive();
    await storage.profiles.update(profile.id, (p) => ({
      ...p,
      preferences: { ...p.preferences, model: 'claude-x', toolSearch: { preloadCount: 5 } },
    }));
    expect((await storage.profiles.get(profile.id))?.preferences).toMatchObject({
      model: 'claude-x',
      toolSearch: { preloadCount: 5 },
    });
    const error = await storage.profiles
      .update(profile.id, (p) => ({ ...p, preferences: { ...p.preferences, baseUrl: 'ftp://x' } }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.path).toBe('preferences.baseUrl');
  });

  it('loads a profile stored before it kept tool switches for app servers, and keeps them once set', async () => {
    opened = await openTestStorage();
    const { storage, db } = opened;
    // As an earlier version of the app stored it: no appServerToolOverrides (nor alwaysAllow).
    await db.put('profiles', {
      id: 'old',
      name: 'Old',
      createdAt: 1,
      defaultServerIds: ['company'],
      preferences: { theme: 'dark', toolSearch: {} },
    });
    await storage.profiles.setActiveId('old');
    const loaded = await storage.profiles.ensureActive();
    expect(loaded).toMatchObject({ id: 'old', defaultServerIds: ['company'], appServerToolOverrides: {} });
    expect((await storage.profiles.list()).skipped).toEqual([]);
    await storage.profiles.update('old', (p) => ({
      ...p,
      appServerToolOverrides: { company: { 'delete-all': { enabled: false }, echo: { description: 'Says it back.' } } },
    }));
    expect((await storage.profiles.get('old'))?.appServerToolOverrides).toEqual({
      company: { 'delete-all': { enabled: false }, echo: { description: 'Says it back.' } },
    });
    expect((await storage.profiles.get('old'))?.preferences.theme).toBe('dark');
  });

  it("checks the tool switches for app servers as it checks a server's own: tool names, description length, server ids", async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const { id } = await storage.profiles.ensureActive();
    const issuesOf = async (appServerToolOverrides: Record<string, Record<string, unknown>>) => {
      const error = await storage.profiles
        .update(id, (p) => ({ ...p, appServerToolOverrides }) as typeof p)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).issues.map((issue) => issue.message);
    };
    expect(await issuesOf({ company: { echo: { description: 'x'.repeat(4001) } } })).toEqual([
      'Description override must be at most 4000 characters',
    ]);
    expect(await issuesOf({ company: { ['t'.repeat(257)]: { enabled: false } } })).toEqual([
      'Tool name must be at most 256 characters',
    ]);
    expect(await issuesOf({ company: { '': { enabled: false } } })).toEqual(['Tool name is required']);
    expect(await issuesOf({ 'not an id': { echo: { enabled: false } } })).toEqual([
      'Server id may contain letters, digits, "-" and single "_" between them',
    ]);
    expect(await issuesOf({ company: { echo: { enabled: 'no' } } })).toHaveLength(1);
    expect((await storage.profiles.get(id))?.appServerToolOverrides).toEqual({});
  });

  it('adds, edits and lists servers per profile', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const a = await storage.profiles.create({ name: 'A' });
    const b = await storage.profiles.create({ name: 'B' });
    await storage.profiles.saveServer(a.id, server);
    await storage.profiles.saveServer(a.id, { ...server, name: 'Weather (EU)' });
    expect((await storage.profiles.listServers(a.id)).items.map((s) => s.name)).toEqual(['Weather (EU)']);
    expect((await storage.profiles.listServers(b.id)).items).toEqual([]);
  });

  it('rejects a duplicate server name, in the profile or among app servers, and keeps the existing one', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const { id } = await storage.profiles.ensureActive();
    await storage.profiles.saveServer(id, server);
    await expect(storage.profiles.saveServer(id, { ...server, id: 'weather-2', name: 'WEATHER' })).rejects.toThrow(
      'A server named "WEATHER" already exists',
    );
    await expect(
      storage.profiles.saveServer(id, { ...server, id: 'demo', name: 'Demo' }, ['demo']),
    ).rejects.toBeInstanceOf(ValidationError);
    expect((await storage.profiles.listServers(id)).items).toEqual([expect.objectContaining(server)]);
  });

  it('removing a server also removes its catalog and credentials and its place in the defaults', async () => {
    opened = await openTestStorage();
    const { storage, db } = opened;
    const profile = await storage.profiles.ensureActive();
    await storage.profiles.saveServer(profile.id, server);
    await storage.profiles.update(profile.id, (p) => ({ ...p, defaultServerIds: ['weather'] }));
    await storage.catalog.set({
      profileId: profile.id,
      serverId: 'weather',
      tools: [{ name: 't', inputSchema: { type: 'object' } }],
      hash: 'h',
      fetchedAt: 1,
    });
    await storage.vault.put({ profileId: profile.id, owner: 'weather', slot: 'bearer' }, 'tok');
    await storage.profiles.removeServer(profile.id, 'weather');
    expect((await storage.profiles.listServers(profile.id)).items).toEqual([]);
    expect(await storage.catalog.get(profile.id, 'weather')).toBeUndefined();
    expect(await db.count('credentials')).toBe(0);
    expect((await storage.profiles.get(profile.id))?.defaultServerIds).toEqual([]);
  });

  it('deleting a profile removes everything it owns', async () => {
    opened = await openTestStorage();
    const { storage, db } = opened;
    const gone = await storage.profiles.create({ name: 'Gone' });
    const kept = await storage.profiles.create({ name: 'Kept' });
    for (const p of [gone, kept]) {
      await storage.profiles.saveServer(p.id, server);
      const thread = await storage.threads.create(p.id);
      await storage.messages.append(thread.id, {
        role: 'user',
        blocks: [{ type: 'text', text: 'x' }],
        status: 'complete',
      });
      await storage.catalog.set({ profileId: p.id, serverId: 'weather', tools: [], hash: 'h', fetchedAt: 1 });
    }
    await storage.profiles.setActiveId(gone.id);
    await storage.profiles.delete(gone.id);
    expect(await storage.profiles.get(gone.id)).toBeUndefined();
    expect(await db.count('servers')).toBe(1);
    expect(await db.count('threads')).toBe(1);
    expect(await db.count('messages')).toBe(1);
    expect(await db.count('catalog')).toBe(1);
    expect(await storage.profiles.getActiveId()).toBeUndefined();
  });

  it('refuses a second profile with the same name (ignoring case) and keeps the first', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    await storage.profiles.create({ name: 'Sam' });
    const error = await storage.profiles.create({ name: ' sam ' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      { path: 'name', message: 'A profile named "sam" already exists' },
    ]);
    await expect(storage.profiles.create({ name: '   ' })).rejects.toThrow('Profile name is required');
    expect((await storage.profiles.list()).items.map((p) => p.name)).toEqual(['Sam']);
  });

  it('never deletes the last profile', async () => {
    opened = await openTestStorage();
    const { storage } = opened;
    const only = await storage.profiles.ensureActive();
    await expect(storage.profiles.delete(only.id)).rejects.toThrow('The last profile cannot be deleted');
    expect(await storage.profiles.get(only.id)).toBeDefined();
  });

  it("deleting a profile removes its credentials and vault key, and leaves the other profile's secrets readable", async () => {
    opened = await openTestStorage();
    const { storage, db } = opened;
    const gone = await storage.profiles.create({ name: 'Gone' });
    const kept = await storage.profiles.create({ name: 'Kept' });
    for (const p of [gone, kept]) {
      await storage.vault.put({ profileId: p.id, owner: 'anthropic', slot: 'api-key' }, `key-of-${p.name}`);
      await storage.vault.put({ profileId: p.id, owner: 'weather', slot: 'bearer' }, `token-of-${p.name}`);
    }
    await storage.profiles.delete(gone.id);
    expect(await db.getAllKeys('vaultKeys')).toEqual([kept.id]);
    expect((await db.getAll('credentials')).map((c) => c.profileId)).toEqual([kept.id, kept.id]);
    expect(await storage.vault.get({ profileId: gone.id, owner: 'weather', slot: 'bearer' })).toBeUndefined();
    expect(await storage.vault.get({ profileId: kept.id, owner: 'weather', slot: 'bearer' })).toBe('token-of-Kept');
  });
});
