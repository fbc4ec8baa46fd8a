import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test/fakes/cleanup';
import { testAppServices } from '../../test/fakes/test-app';
import { openTestStorage } from '../../test/fakes/test-storage';
import { createAppStore } from './app-store';
import { startApp } from './start-app';

const cleanup = cleanupAfterEach();

describe('start-up and the word vectors of tool search', () => {
  it('asks for them once; a file that cannot load is reported and the app runs on, searching by words', async () => {
    const test = await openTestStorage();
    await test.storage.profiles.ensureActive();
    const warnings: string[] = [];
    let asked = 0;
    const services = testAppServices(test.storage, {
      logger: { warn: (message) => warnings.push(message), debug: () => undefined },
      loadWordVectors: () => {
        asked++;
        return Promise.reject(new Error('/search/word-vectors.bin answered 404'));
      },
    });
    const store = createAppStore();
    await startApp(store, () => Promise.resolve(services));
    cleanup(
      () => store.getState().registry?.close(),
      () => test.close(),
    );
    expect(store.getState().phase).toBe('ready');
    expect(asked).toBe(1);
    await expect
      .poll(() => warnings)
      .toContain('Loading the word vectors of tool search failed; it ranks by words alone');
  });
});
