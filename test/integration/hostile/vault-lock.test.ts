// Issue #15 item 4: a profile locked under its passphrase says so where a secret is needed, and works again after unlock.
import { describe, expect, it } from 'vitest';
import { BEARER_SLOT } from '../../../src/domain/server-config';
import { createVaultLock } from '../../../src/stores/vault-lock';
import { sendMessage } from '../../../src/turns/turn-runner';
import { cleanupAfterEach } from '../../fakes/cleanup';
import { startTestApp } from '../../fakes/test-app';
import { openTestStorage } from '../../fakes/test-storage';
import { startTestMcpServer } from '../../fixtures/test-mcp-server';

const cleanup = cleanupAfterEach();
const PASSPHRASE = 'a long enough passphrase';
const TOKEN = 'server-token-behind-the-lock';

async function setup() {
  let clock = 5_000_000;
  const storage = await openTestStorage({ now: () => clock });
  const app = await startTestApp({ apiKey: 'sk-ant-locked-key', storage });
  const server = await startTestMcpServer({ requireHeader: { name: 'Authorization', value: `Bearer ${TOKEN}` } });
  const lock = createVaultLock({ storage: storage.storage, registry: app.registry, profileId: app.profile.id });
  cleanup(
    () => lock.dispose(),
    () => server.stop(),
    () => app.close(),
    () => storage.close(),
  );
  await storage.storage.vault.put({ profileId: app.profile.id, owner: 'gated', slot: BEARER_SLOT }, TOKEN);
  await app.registry.register({ id: 'gated', name: 'Gated', url: server.url, auth: { kind: 'bearer' } }, 'user');
  const turn = async () => {
    const thread = await storage.storage.threads.create(app.profile.id);
    await sendMessage(app.deps, thread.id, 'Hello', {
      askApproval: () => Promise.resolve('deny'),
      signal: new AbortController().signal,
    });
    return (await storage.storage.messages.list(thread.id)).items.at(-1);
  };
  return { ...app, storage: storage.storage, lock, turn, advance: (ms: number) => (clock += ms) };
}

describe('a locked vault', () => {
  it('a turn and a server connection say "Locked: enter your passphrase"; after unlock both work', async () => {
    const { lock, registry, turn, api } = await setup();
    expect(await lock.actions.setPassphrase(PASSPHRASE, PASSPHRASE, 10)).toEqual({});
    expect(await lock.actions.lock()).toEqual({});
    expect(lock.store.getState().status).toEqual({ kind: 'locked', autoLockMinutes: 10 });

    const locked = await turn();
    expect(locked).toMatchObject({ role: 'assistant', status: 'error' });
    expect(JSON.stringify(locked?.error)).toContain('Locked: enter your passphrase');
    expect(api.requests).toHaveLength(0);
    const state = await registry.connect('gated');
    expect(state.status).not.toBe('connected');
    expect(state.lastError?.message).toBe('Locked: enter your passphrase.');

    expect(await lock.actions.unlock('not the passphrase')).toEqual({
      passphrase: 'Wrong passphrase. The secrets stay locked; try again.',
    });
    expect(lock.store.getState().status?.kind).toBe('locked');
    expect(await lock.actions.unlock(PASSPHRASE)).toEqual({});
    expect(lock.store.getState().status?.kind).toBe('unlocked');
    await expect.poll(() => registry.get('gated')?.state.status).toBe('connected');
    api.script({ text: 'Unlocked answer.' });
    const answer = await turn();
    expect(answer).toMatchObject({ status: 'complete' });
    expect(JSON.stringify(answer?.blocks)).toContain('Unlocked answer.');
    const sentKey = api.requests[0]?.headers['x-api-key'] ?? api.requests[0]?.headers.authorization;
    expect(sentKey).toContain('sk-ant-locked-key');
  });

  it('locks after the idle minutes on the injected clock, and refuses a short or mistyped passphrase', async () => {
    const { lock, advance } = await setup();
    expect(await lock.actions.setPassphrase('short', 'short', 5)).toHaveProperty('passphrase');
    expect(await lock.actions.setPassphrase(PASSPHRASE, `${PASSPHRASE}!`, 5)).toEqual({
      confirm: 'The two passphrases differ.',
    });
    expect(await lock.actions.setPassphrase(PASSPHRASE, PASSPHRASE, 5)).toEqual({});
    advance(4 * 60_000);
    await lock.actions.checkIdle();
    expect(lock.store.getState().status?.kind).toBe('unlocked');
    advance(60_000);
    await lock.actions.checkIdle();
    expect(lock.store.getState().status?.kind).toBe('locked');
  });
});
