import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test/fakes/cleanup';
import { sha256Hex } from '../../test/fakes/memory-stores';
import { createStorageRegistry } from '../../test/fakes/test-app';
import { openTestStorage } from '../../test/fakes/test-storage';
import { EMPTY_APP_CONFIG } from '../domain/app-config';
import type { UserPreferences } from '../domain/user-config';
import { createAppStore, type AppServices } from './app-store';
import { startApp } from './start-app';

const cleanup = cleanupAfterEach();

describe('start-up and the theme copy', () => {
  it('copies the open profile theme when it is applied: at start, after each change, and for the profile a switch reloads into', async () => {
    const test = await openTestStorage();
    const profile = await test.storage.profiles.ensureActive();
    await test.storage.profiles.update(profile.id, (p) => ({ ...p, preferences: { ...p.preferences, theme: 'dark' } }));
    const copies: UserPreferences['theme'][] = [];
    const services: AppServices = {
      storage: test.storage,
      loadAppConfig: () => Promise.resolve({ config: EMPTY_APP_CONFIG, source: 'none' }),
      createRegistry: (profileId) => createStorageRegistry(test.storage, profileId),
      createModel: () => {
        throw new Error('no model call in this test');
      },
      sha256Hex,
      now: Date.now,
      rememberTheme: (theme) => copies.push(theme),
    };
    const store = createAppStore();
    await startApp(store, () => Promise.resolve(services));
    cleanup(() => store.getState().registry?.close(), () => test.close());
    expect(store.getState().profile?.preferences.theme).toBe('dark');
    expect(copies).toEqual(['dark']);

    const settings = store.getState().settings!;
    expect(await settings.profiles.setTheme('light')).toBeUndefined();
    expect(store.getState().profile?.preferences.theme).toBe('light');
    expect(copies).toEqual(['dark', 'light']);

    await settings.profiles.create('Sam'); // a new profile follows the system
    const sam = (await settings.profiles.list()).find((p) => p.name === 'Sam')!;
    expect(await settings.profiles.switchTo(sam.id)).toEqual({ reload: true });
    expect(copies).toEqual(['dark', 'light', 'system']);
  });
});
