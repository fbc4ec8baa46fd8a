// Issue #15 item 4: an OAuth server of a locked profile says "Locked", keeps its tokens, and needs no new sign-in after unlock.
import { describe, expect, it } from 'vitest';
import type { SignInCallback } from '../../../src/mcp/registry';
import { createLocalLocks } from '../../../src/platform/locks';
import { cleanupAfterEach } from '../../fakes/cleanup';
import { createStorageRegistry } from '../../fakes/test-app';
import { openTestStorage } from '../../fakes/test-storage';
import { startOAuthMcpServer } from '../../fixtures/oauth-mcp-server';

const cleanup = cleanupAfterEach();
const PASSPHRASE = 'a long enough passphrase';

/** Stands in for the person in the popup: follows the authorization URL and reads the redirect back. */
async function approve(url: URL): Promise<SignInCallback> {
  const response = await fetch(url, { redirect: 'manual' });
  const back = new URL(response.headers.get('location') ?? '');
  return { state: back.searchParams.get('state') ?? '', code: back.searchParams.get('code') ?? '' };
}

describe('an OAuth server of a locked profile', () => {
  it('says "Locked: enter your passphrase" instead of asking for a sign-in, and connects again after unlock', async () => {
    const [server, opened] = await Promise.all([startOAuthMcpServer(), openTestStorage()]);
    const { vault } = opened.storage;
    const profileId = (await opened.storage.profiles.ensureActive()).id;
    const registry = createStorageRegistry(opened.storage, profileId, {
      oauth: {
        settings: { redirectUrl: 'http://127.0.0.1:5173/oauth/callback', clientName: 'MCP Agent test' },
        secrets: vault,
        locks: createLocalLocks(),
        newState: () => crypto.randomUUID(),
      },
    });
    cleanup(
      () => registry.close(),
      () => server.stop(),
      () => opened.close(),
    );
    await registry.register({ id: 'notes', name: 'Notes', url: server.url, auth: { kind: 'oauth' } }, 'user');
    expect((await registry.connect('notes')).status).toBe('needs-auth');
    let callback: SignInCallback | undefined;
    await registry.signIn('notes', async (url) => void (callback = await approve(url)));
    expect(await registry.completeSignIn(callback!)).toMatchObject({ state: { status: 'connected' } });

    await vault.setPassphrase(profileId, PASSPHRASE);
    vault.lock(profileId);
    await registry.disconnect('notes');
    const locked = await registry.connect('notes');
    expect(locked.status).not.toBe('connected');
    expect(locked.lastError?.message).toBe('Locked: enter your passphrase.');

    await vault.unlock(profileId, PASSPHRASE);
    expect((await registry.connect('notes')).status).toBe('connected');
  });
});
