import { afterEach, describe, expect, it } from 'vitest';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import { loadAppConfig } from './app-config-source';

let opened: TestStorage | undefined;
afterEach(() => opened?.close());

const serve =
  (status: number, body: string): typeof fetch =>
  async () =>
    new Response(body, { status });
const unreachable: typeof fetch = async () => {
  throw new TypeError('Failed to fetch');
};
const server = { id: 'demo', name: 'Demo', url: 'https://demo.example/mcp' };

describe('loadAppConfig', () => {
  it('loads a valid file, fills defaults and caches it', async () => {
    opened = await openTestStorage();
    const repo = opened.storage.appConfig;
    const load = await loadAppConfig(
      serve(200, JSON.stringify({ servers: [server], defaults: { model: 'claude-test' } })),
      '/app-config.json',
      repo,
    );
    expect(load.source).toBe('file');
    expect(load.error).toBeUndefined();
    expect(load.config.servers).toEqual([expect.objectContaining({ ...server, transport: 'auto', enabled: true })]);
    expect(load.config.defaults.model).toBe('claude-test');
    expect((await repo.get())?.servers[0]?.id).toBe('demo');
  });

  it('reports invalid JSON and runs without app servers', async () => {
    opened = await openTestStorage();
    const load = await loadAppConfig(serve(200, '{ "servers": [ '), '/app-config.json', opened.storage.appConfig);
    expect(load.config.servers).toEqual([]);
    expect(load.error?.message).toMatch(/^app-config\.json is invalid: is not valid JSON/);
  });

  it('reports every invalid field by name and ignores the file rather than half-applying it', async () => {
    opened = await openTestStorage();
    const repo = opened.storage.appConfig;
    await loadAppConfig(serve(200, JSON.stringify({ servers: [server] })), '/app-config.json', repo);
    const bad = {
      servers: [
        server,
        { ...server, url: 'http://remote.example/mcp' },
        { id: 'x', name: 'X', url: 'https://x.example', auth: { kind: 'kerberos' } },
      ],
    };
    const load = await loadAppConfig(serve(200, JSON.stringify(bad)), '/app-config.json', repo);
    expect(load.config.servers).toEqual([]);
    expect(load.error?.issues.map((i) => i.path)).toEqual(['servers.1.url', 'servers.2.auth.kind']);
    // The last good copy is not overwritten by a bad file.
    expect((await repo.get())?.servers.map((s) => s.id)).toEqual(['demo']);
  });

  it('treats a missing file as "no app servers", without an error', async () => {
    opened = await openTestStorage();
    const load = await loadAppConfig(serve(404, 'not found'), '/app-config.json', opened.storage.appConfig);
    expect(load).toMatchObject({ source: 'none', config: { servers: [] } });
    expect(load.error).toBeUndefined();
  });

  it('falls back to the cached copy when the file cannot be fetched', async () => {
    opened = await openTestStorage();
    const repo = opened.storage.appConfig;
    const empty = await loadAppConfig(unreachable, '/app-config.json', repo);
    expect(empty.notice).toContain('running without app servers');
    await loadAppConfig(serve(200, JSON.stringify({ servers: [server] })), '/app-config.json', repo);
    const offline = await loadAppConfig(unreachable, '/app-config.json', repo);
    expect(offline.source).toBe('cache');
    expect(offline.config.servers.map((s) => s.id)).toEqual(['demo']);
    expect(offline.notice).toContain('using the last loaded copy');
  });
});
