import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test/fakes/cleanup';
import { testAppServices } from '../../test/fakes/test-app';
import { openTestStorage } from '../../test/fakes/test-storage';
import { typingSlices } from '../../test/fakes/typing-slices';
import type { UserPreferences } from '../domain/user-config';
import { createAppStore } from './app-store';
import { startApp } from './start-app';

const cleanup = cleanupAfterEach();

describe('start-up and the theme copy', () => {
  it('copies the open profile theme when it is applied: at start, after each change, and for the profile a switch reloads into', async () => {
    const test = await openTestStorage();
    const profile = await test.storage.profiles.ensureActive();
    await test.storage.profiles.update(profile.id, (p) => ({ ...p, preferences: { ...p.preferences, theme: 'dark' } }));
    const copies: UserPreferences['theme'][] = [];
    const services = testAppServices(test.storage, { rememberTheme: (theme) => copies.push(theme) });
    const store = createAppStore();
    await startApp(store, () => Promise.resolve(services));
    cleanup(
      () => store.getState().registry?.close(),
      () => test.close(),
    );
    expect(store.getState().profile?.preferences.theme).toBe('dark');
    expect(copies).toEqual(['dark']);

    const settings = store.getState().settings!;
    expect(await settings.profiles.setTheme('light')).toBeUndefined();
    expect(store.getState().profile?.preferences.theme).toBe('light');
    await expect.poll(() => copies).toEqual(['dark', 'light']);

    // Another tab opened another profile (the next page load opens that one): this tab's change is not copied.
    const other = await test.storage.profiles.create({ name: 'Other tab' });
    await test.storage.profiles.setActiveId(other.id);
    expect(await settings.profiles.setTheme('dark')).toBeUndefined();
    expect(store.getState().profile?.preferences.theme).toBe('dark');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(copies).toEqual(['dark', 'light']);
    await test.storage.profiles.setActiveId(profile.id);

    await settings.profiles.create('Sam'); // a new profile follows the system
    const sam = (await settings.profiles.list()).find((p) => p.name === 'Sam')!;
    expect(await settings.profiles.switchTo(sam.id)).toEqual({ reload: true });
    expect(copies).toEqual(['dark', 'light', 'system']);
    expect(await settings.profiles.list()).toHaveLength(3);
  });
});

describe('start-up and deletions left waiting', () => {
  it('finishes a deletion a closed page left waiting for Undo, and keeps one another tab may still undo', async () => {
    let time = 1_000_000;
    const test = await openTestStorage({ now: () => time });
    const profile = await test.storage.profiles.ensureActive();
    const stale = await test.storage.threads.create(profile.id, { title: 'Deleted before the page closed' });
    await test.storage.threads.markDeleted(stale.id, true);
    time += 55_000;
    const recent = await test.storage.threads.create(profile.id, { title: 'Deleted in another tab just now' });
    await test.storage.threads.markDeleted(recent.id, true);
    time += 10_000;
    const store = createAppStore();
    await startApp(store, () => Promise.resolve(testAppServices(test.storage, { now: () => time })));
    cleanup(
      () => store.getState().registry?.close(),
      () => test.close(),
    );
    await expect.poll(() => test.storage.threads.get(stale.id)).toBeUndefined();
    expect((await test.storage.threads.get(recent.id))?.deletedAt).toBeDefined();
    expect(
      store
        .getState()
        .chat!.getState()
        .threads.map((t) => t.title),
    ).toEqual([]);
  });
});

describe('start-up and the background scheduler', () => {
  it("runs its background work in storage's scheduler: a thread search while the person types brings in another tab's new server", async () => {
    const typing = typingSlices();
    const name = `start-slices-${crypto.randomUUID()}`;
    const tabA = await openTestStorage({ name, channelName: name });
    const tabB = await openTestStorage({ name, channelName: name, factory: tabA.factory, slices: typing.slices });
    const profile = await tabA.storage.profiles.ensureActive();
    const thread = await tabA.storage.threads.create(profile.id, { title: 'Trip' });
    await tabA.storage.messages.append(thread.id, {
      role: 'user',
      status: 'complete',
      blocks: [{ type: 'text', text: 'Pack the tent' }],
    });
    const store = createAppStore();
    await startApp(store, () => Promise.resolve(testAppServices(tabB.storage)));
    cleanup(
      () => store.getState().registry?.close(),
      () => tabA.close(),
      () => tabB.close(),
    );
    const { registry, chatActions } = store.getState();

    // Another tab adds a server: this page takes it in only in a pause of the person's typing.
    await tabA.storage.profiles.saveServer(profile.id, {
      id: 'theirs',
      name: 'Theirs',
      url: 'https://theirs.example/mcp',
    });
    await expect.poll(() => typing.waiting).toBeGreaterThan(0);
    expect(registry!.get('theirs')).toBeUndefined();

    // The person searches the threads: the search hurries the one scheduler, so the server waiting in it comes in too.
    const found = await chatActions!.searchMessages('tent');
    expect([...found.keys()]).toEqual([thread.id]);
    await expect.poll(() => registry!.get('theirs')?.config.name).toBe('Theirs');
  });
});
