import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../test/fakes/memory-storage';
import type { ModelPort } from '../agent/model-port';
import { API_KEY_SLOT, MODEL_API_OWNER } from '../storage/vault';
import { testConnection } from './connection-test';

/** A model that lists one model and records the key it was made with. */
function listingModel(keys: string[]) {
  return (apiKey: string): ModelPort => {
    keys.push(apiKey);
    return {
      listModels: async () => ['claude-test'],
      stream: () => Promise.reject(new Error('no model call in this test')),
    };
  };
}

async function profileWithStoredKey() {
  const storage = createMemoryStorage();
  const profileId = (await storage.profiles.ensureActive()).id;
  await storage.vault.put({ profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT }, 'sk-ant-stored');
  return { storage, profileId, defaultBaseUrl: 'https://api.example.test' };
}

describe('Test connection (Settings)', () => {
  it('uses the stored key when none is typed', async () => {
    const deps = await profileWithStoredKey();
    const keys: string[] = [];
    const result = await testConnection(deps, { apiKey: '', baseUrl: 'https://api.example.test' }, listingModel(keys));
    expect(result).toEqual({ ok: true, models: ['claude-test'] });
    expect(keys).toEqual(['sk-ant-stored']);
  });

  it('with the vault locked, says the stored key cannot be read (not "enter your key") and calls nothing', async () => {
    const deps = await profileWithStoredKey();
    await deps.storage.vault.setPassphrase(deps.profileId, 'correct horse battery', 15);
    deps.storage.vault.lock(deps.profileId);
    const keys: string[] = [];
    const result = await testConnection(deps, { apiKey: '', baseUrl: 'https://api.example.test' }, listingModel(keys));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/stored API key cannot be read: Locked: enter your passphrase/);
    expect(keys).toEqual([]);
  });

  it('a typed key needs no vault, locked or not', async () => {
    const deps = await profileWithStoredKey();
    await deps.storage.vault.setPassphrase(deps.profileId, 'correct horse battery', 15);
    deps.storage.vault.lock(deps.profileId);
    const keys: string[] = [];
    const result = await testConnection(
      deps,
      { apiKey: 'sk-ant-typed', baseUrl: 'https://api.example.test' },
      listingModel(keys),
    );
    expect(result).toEqual({ ok: true, models: ['claude-test'] });
    expect(keys).toEqual(['sk-ant-typed']);
  });

  it('does not send the saved key to a base URL at another origin: it asks for the key to be typed', async () => {
    const deps = await profileWithStoredKey();
    const keys: string[] = [];
    const result = await testConnection(
      deps,
      { apiKey: '', baseUrl: 'https://cheap-claude.example' },
      listingModel(keys),
    );
    expect(result).toEqual({
      ok: false,
      message:
        "Enter the API key to test https://cheap-claude.example: the saved key is only sent to the base URL's origin it was saved with.",
    });
    expect(keys).toEqual([]);
    // Another path at the same origin keeps it.
    expect(
      await testConnection(deps, { apiKey: '', baseUrl: 'https://api.example.test/proxy' }, listingModel(keys)),
    ).toMatchObject({ ok: true });
    expect(keys).toEqual(['sk-ant-stored']);
  });
});
