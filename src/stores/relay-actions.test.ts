import { describe, expect, it } from 'vitest';
import { startRelayServer } from '../../relay/node-server';
import { cleanupAfterEach } from '../../test/fakes/cleanup';
import { serversHarness } from '../../test/fakes/servers-harness';
import { TEST_APP_ORIGIN } from '../../test/fakes/test-app';
import { EMPTY_SERVER_FORM } from './servers-store';
import { saveRelayUrl } from './relay-settings';

const cleanup = cleanupAfterEach();
const harness = serversHarness(cleanup);

/** Node's fetch with the page's Origin, as a browser sends it cross-origin (the relay serves only allowed origins). */
const browserFetch = (input: string | URL, init?: RequestInit) => {
  const headers = new Headers(init?.headers);
  headers.set('origin', TEST_APP_ORIGIN);
  return fetch(input, { ...init, headers });
};

async function setup() {
  const context = await harness.setup({ fetch: browserFetch });
  const { storage, store, actions, profile } = context;
  const server = await harness.mcpServer({ toolCount: 1, cors: 'none' });
  expect(await actions.add({ ...EMPTY_SERVER_FORM, name: 'Plain', url: server.url })).toBeUndefined();
  const view = () => store.getState().servers.find((s) => s.name === 'Plain')!;
  const storedRoute = async () => (await storage.profiles.listServers(profile.id)).items[0]?.viaRelay;
  return { ...context, view, storedRoute, profileId: profile.id };
}

describe('"Connect through relay"', () => {
  it('with the relay running: saved as routed through it, connected, and the status line data says so', async () => {
    const { storage, registry, actions, view, storedRoute, profileId } = await setup();
    const relay = await startRelayServer({ port: 0, allowedOrigins: [TEST_APP_ORIGIN], allowPrivateTargets: true });
    cleanup(relay.close);
    expect(await saveRelayUrl(storage, registry, profileId, relay.url, undefined)).toBeUndefined();
    await actions.connectThroughRelay('plain');
    expect(view()).toMatchObject({ status: 'connected', viaRelay: true });
    expect(await storedRoute()).toBe(true);
  });

  it('with the relay down: one clear message, and the server stays as it was', async () => {
    const { storage, registry, actions, view, storedRoute, profileId, store } = await setup();
    const relay = await startRelayServer({ port: 0, allowedOrigins: [TEST_APP_ORIGIN] });
    await relay.close();
    expect(await saveRelayUrl(storage, registry, profileId, relay.url, undefined)).toBeUndefined();
    await actions.connectThroughRelay('plain');
    expect(store.getState().notices.plain).toEqual({
      tone: 'error',
      text: `The relay at ${relay.url} does not answer. Check the Relay URL in Settings and that the relay is running.`,
    });
    expect(view().viaRelay).toBe(false);
    expect(await storedRoute()).toBe(false);
    expect(registry.get('plain')?.config.viaRelay).toBe(false);
  });

  it('a relay that refuses: its reason is shown, the server stays as it was', async () => {
    const { storage, registry, actions, storedRoute, profileId, store } = await setup();
    const relay = await startRelayServer({ port: 0, allowedOrigins: [TEST_APP_ORIGIN], allowPrivateTargets: false });
    cleanup(relay.close);
    await saveRelayUrl(storage, registry, profileId, relay.url, undefined);
    await actions.connectThroughRelay('plain');
    expect(store.getState().notices.plain?.text).toMatch(
      /^The relay refused the request: the target 127\.0\.0\.1 is a loopback or private address/,
    );
    expect(await storedRoute()).toBe(false);
  });

  it('a Relay URL that is not one is refused in Settings, with the reason', async () => {
    const { storage, registry, profileId } = await setup();
    expect(await saveRelayUrl(storage, registry, profileId, 'ftp://relay.example', undefined)).toMatch(
      /^Relay URL must use https:\/\//,
    );
    expect(await saveRelayUrl(storage, registry, profileId, 'http://relay.example.com/', undefined)).toMatch(
      /^Relay URL must use https:\/\/ for a remote host/,
    );
    expect(registry.relayUrl()).toBeUndefined();
  });
});
