// Issue #15 item 7: a server named "Anthropic" got the id "anthropic", the vault owner of the API key, so removing it erased the key.
import { describe, expect, it } from 'vitest';
import { BEARER_SLOT } from '../../../src/domain/server-config';
import { MODEL_API_OWNER } from '../../../src/storage/vault';
import type { AppState } from '../../../src/stores/app-store';
import { EMPTY_SERVER_FORM } from '../../../src/stores/servers-store';
import { API_KEY_SLOT } from '../../../src/storage/vault';
import { cleanupAfterEach } from '../../fakes/cleanup';
import { startAppOnStorage } from '../../fakes/test-app';
import { openTestStorage } from '../../fakes/test-storage';
import { startTestMcpServer } from '../../fixtures/test-mcp-server';

const cleanup = cleanupAfterEach();
const API_KEY = 'sk-ant-api03-kept-through-server-removal';
const TOKEN = { header: 'Authorization', value: 'Bearer server-token' };

/** The app started over fresh storage, with `before` run on the storage first (what an older version stored). */
async function startWith(
  before: (profileId: string, put: (owner: string, slot: string, v: string) => Promise<void>) => Promise<void>,
) {
  const test = await openTestStorage();
  const profile = await test.storage.profiles.ensureActive();
  await before(profile.id, (owner, slot, value) =>
    test.storage.vault.put({ profileId: profile.id, owner, slot }, value),
  );
  const { state, close } = await startAppOnStorage(test.storage);
  cleanup(close, () => test.close());
  const apiKey = () => test.storage.vault.get({ profileId: profile.id, owner: MODEL_API_OWNER, slot: API_KEY_SLOT });
  return { test, state, profileId: profile.id, apiKey };
}

async function addAndRemoveAnthropicServer(state: AppState) {
  const server = await startTestMcpServer({ requireHeader: { name: TOKEN.header, value: TOKEN.value } });
  cleanup(() => server.stop());
  const actions = state.serverActions!;
  const form = {
    ...EMPTY_SERVER_FORM,
    name: 'Anthropic',
    url: server.url,
    auth: 'bearer' as const,
    token: 'server-token',
  };
  expect(await actions.add(form)).toBeUndefined();
  expect(state.registry!.get('anthropic')?.config.name).toBe('Anthropic');
  await actions.remove('anthropic');
  expect(state.registry!.get('anthropic')).toBeUndefined();
}

describe('the API key and a server named "Anthropic"', () => {
  it('removing a server named "Anthropic" removes its token and leaves the API key', async () => {
    const { test, state, profileId, apiKey } = await startWith(async (_, put) =>
      put(MODEL_API_OWNER, API_KEY_SLOT, API_KEY),
    );
    await addAndRemoveAnthropicServer(state);
    expect(await apiKey()).toBe(API_KEY);
    expect(await test.storage.vault.has({ profileId, owner: 'anthropic', slot: BEARER_SLOT })).toBe(false);
    expect((await state.settings!.load()).hasApiKey).toBe(true);
  });

  it('an API key stored under the old owner "anthropic" moves at start-up, and survives the server being removed', async () => {
    const { test, state, profileId, apiKey } = await startWith(async (_, put) => put('anthropic', 'api-key', API_KEY));
    expect(await apiKey()).toBe(API_KEY);
    expect(await test.storage.vault.has({ profileId, owner: 'anthropic', slot: 'api-key' })).toBe(false);
    await addAndRemoveAnthropicServer(state);
    expect(await apiKey()).toBe(API_KEY);
  });

  it('no server id can name an app owner, so no removal can clear one', async () => {
    const { test, profileId } = await startWith(async (_, put) => put(MODEL_API_OWNER, API_KEY_SLOT, API_KEY));
    await expect(test.storage.vault.clearOwner(profileId, MODEL_API_OWNER)).rejects.toThrow();
    expect(await test.storage.vault.get({ profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT })).toBe(API_KEY);
  });
});
