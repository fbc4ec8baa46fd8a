import { afterEach, describe, expect, it } from 'vitest';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import { MODEL_API_OWNER } from '../storage/vault';
import { createProfileActions } from './profile-actions';
import { API_KEY_SLOT } from '../storage/vault';

let opened: TestStorage | undefined;
afterEach(() => opened?.close());

async function setUp() {
  opened = await openTestStorage();
  const { storage } = opened;
  const open = await storage.profiles.ensureActive();
  const left: string[] = [];
  const themes: string[] = [];
  const actions = createProfileActions({
    storage,
    profileId: open.id,
    leave: async () => void left.push(open.id),
    onProfile: () => undefined,
    rememberTheme: (theme) => themes.push(theme),
  });
  return { storage, db: opened.db, open, actions, left, themes };
}

describe('profile actions', () => {
  it('creates profiles with a valid, unique name and lists them, the open one marked', async () => {
    const { actions, open } = await setUp();
    expect(await actions.create('  ')).toEqual({ name: 'Profile name is required' });
    expect(await actions.create('Sam')).toEqual({});
    expect(await actions.create('SAM')).toEqual({ name: 'A profile named "SAM" already exists' });
    expect((await actions.list()).map((p) => [p.name, p.isActive])).toEqual([
      [open.name, true],
      ['Sam', false],
    ]);
  });

  it('switching makes the other profile the one the app opens, after leaving this one, and copies its theme for the reload', async () => {
    const { storage, actions, left, themes } = await setUp();
    await actions.create('Sam');
    const sam = (await actions.list()).find((p) => p.name === 'Sam')!;
    await storage.profiles.update(sam.id, (p) => ({ ...p, preferences: { ...p.preferences, theme: 'dark' } }));
    expect(await actions.switchTo(sam.id)).toEqual({ reload: true });
    expect(left).toHaveLength(1);
    expect((await storage.profiles.ensureActive()).name).toBe('Sam');
    expect(themes).toEqual(['dark']);
    expect(await actions.switchTo('no-such-profile')).toEqual({
      error: 'That profile no longer exists.',
      reload: false,
    });
    expect(themes).toEqual(['dark']);
  });

  it('deleting a profile removes its key, credentials, threads and servers; the last one is kept', async () => {
    const { storage, db, open, actions, left, themes } = await setUp();
    expect(await actions.remove(open.id)).toEqual({
      error: 'The last profile cannot be deleted; create another one first.',
      reload: false,
    });
    await actions.create('Sam');
    const sam = (await actions.list()).find((p) => p.name === 'Sam')!;
    for (const id of [open.id, sam.id]) {
      await storage.profiles.saveServer(id, {
        id: 'weather',
        name: 'Weather',
        url: 'https://weather.example/mcp',
        auth: { kind: 'bearer' },
      });
      await storage.vault.put({ profileId: id, owner: MODEL_API_OWNER, slot: API_KEY_SLOT }, `key-${id}`);
      await storage.vault.put({ profileId: id, owner: 'weather', slot: 'bearer' }, `token-${id}`);
      const thread = await storage.threads.create(id, { title: `Thread of ${id}` });
      await storage.messages.append(thread.id, {
        role: 'user',
        blocks: [{ type: 'text', text: 'hello' }],
        status: 'complete',
      });
    }

    expect(await actions.remove(sam.id)).toEqual({ reload: false });
    expect(left).toEqual([]); // Another profile: the open one keeps running, and its theme copy stays.
    expect(themes).toEqual([]);
    expect((await storage.profiles.list()).items.map((p) => p.id)).toEqual([open.id]);
    expect((await db.getAll('credentials')).every((c) => c.profileId === open.id)).toBe(true);
    expect(await db.getAllKeys('vaultKeys')).toEqual([open.id]);
    expect((await db.getAll('servers')).map((s) => s.profileId)).toEqual([open.id]);
    expect((await db.getAll('threads')).map((t) => t.profileId)).toEqual([open.id]);
    expect(await db.count('messages')).toBe(1);
    expect(await storage.vault.get({ profileId: open.id, owner: MODEL_API_OWNER, slot: API_KEY_SLOT })).toBe(
      `key-${open.id}`,
    );
  });

  it('deleting the open profile leaves it first and asks for a reload into the remaining one, whose theme it copies', async () => {
    const { storage, open, actions, left, themes } = await setUp();
    await actions.create('Sam');
    const sam = (await actions.list()).find((p) => p.name === 'Sam')!;
    await storage.profiles.update(sam.id, (p) => ({ ...p, preferences: { ...p.preferences, theme: 'light' } }));
    expect(await actions.remove(open.id)).toEqual({ reload: true });
    expect(left).toEqual([open.id]);
    expect((await storage.profiles.ensureActive()).name).toBe('Sam');
    expect(themes).toEqual(['light']);
  });

  it('tells the Settings list when another tab adds or deletes a profile', async () => {
    const name = `profiles-${crypto.randomUUID()}`;
    const first = await openTestStorage({ name, channelName: name });
    const second = await openTestStorage({ name, channelName: name, factory: first.factory });
    try {
      const open = await first.storage.profiles.ensureActive();
      const here = createProfileActions({
        storage: first.storage,
        profileId: open.id,
        leave: async () => undefined,
        onProfile: () => undefined,
      });
      let heard = 0;
      const stop = here.follow(() => heard++);
      const added = await second.storage.profiles.create({ name: 'From the other tab' });
      await expect.poll(() => heard).toBe(1);
      expect((await here.list()).map((p) => p.name)).toEqual([open.name, 'From the other tab']);
      await second.storage.profiles.delete(added.id);
      await expect.poll(() => heard).toBe(2);
      expect((await here.list()).map((p) => p.name)).toEqual([open.name]);
      // This tab's own changes are followed by the list itself, not announced back.
      await first.storage.profiles.create({ name: 'Mine' });
      stop();
      let heardByAnother = 0; // A follower still listening: once it has heard the change, a stopped one would have too.
      const stopAnother = here.follow(() => heardByAnother++);
      await second.storage.profiles.create({ name: 'After stop' });
      await expect.poll(() => heardByAnother).toBe(1);
      stopAnother();
      expect(heard).toBe(2);
    } finally {
      first.close();
      second.close();
    }
  });
});
