// The server directory against a registry on 127.0.0.1 that speaks the MCP Registry API: search, cursor paging, and
// every way a registry can be wrong (down, slow, HTML, huge, malformed entries, javascript: URLs).
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test/fakes/cleanup';
import { remoteEntry, startRegistryFixture, type RegistryFixtureOptions } from '../../test/fixtures/registry-server';
import { createServerDirectory, DirectoryError, serversUrl } from './server-directory';

const cleanup = cleanupAfterEach();
const never = new AbortController().signal;

async function directory(options: RegistryFixtureOptions, timeoutMs?: number) {
  const registry = await startRegistryFixture(options);
  cleanup(() => registry.stop());
  return {
    registry,
    directory: createServerDirectory({
      fetch: globalThis.fetch,
      endpoint: registry.url,
      ...(timeoutMs ? { timeoutMs } : {}),
    }),
  };
}

const many = (n: number) =>
  Array.from({ length: n }, (_, i) => remoteEntry(`io.example/server-${i}`, `https://s${i}.example.com/mcp`));

describe('server directory', () => {
  it('searches by name and pages with the registry cursor', async () => {
    const { registry, directory: dir } = await directory({
      servers: [...many(45), remoteEntry('io.github.someone/weather', 'https://weather.example.com/mcp')],
    });
    const first = await dir.search('', undefined, never);
    expect(first.entries).toHaveLength(30);
    expect(first.nextCursor).toBeDefined();
    const second = await dir.search('', first.nextCursor, never);
    expect(second.entries.map((e) => e.name).at(-1)).toBe('io.github.someone/weather');
    expect(second.nextCursor).toBeUndefined();

    const found = await dir.search('weather', undefined, never);
    expect(found.entries).toEqual([
      {
        name: 'io.github.someone/weather',
        title: 'weather',
        description: 'The weather server.',
        version: '1.0.0',
        publisher: 'io.github.someone',
        remotes: [{ transport: 'http', url: 'https://weather.example.com/mcp', headers: [] }],
        packages: [],
      },
    ]);
    expect(registry.queries.at(-1)?.get('search')).toBe('weather');
  });

  it('skips malformed entries and javascript: or plain-http remotes with the reason, and keeps the rest', async () => {
    const { directory: dir } = await directory({
      servers: [
        remoteEntry('io.example/good', 'https://good.example.com/mcp'),
        remoteEntry('io.example/script', 'javascript:alert(1)'),
        remoteEntry('io.example/clear', 'http://clear.example.com/mcp'),
        { name: 'io.example/odd', remotes: 'not a list' },
        { name: 'io.example/ws', remotes: [{ type: 'websocket', url: 'wss://ws.example.com' }] },
        {
          name: 'io.example/local',
          description: 'Runs locally.',
          packages: [{ registryType: 'npm', identifier: '@x/y' }],
        },
      ],
    });
    const page = await dir.search('', undefined, never);
    expect(page.entries.map((e) => e.name)).toEqual(['io.example/good', 'io.example/local']);
    expect(page.entries[1]).toMatchObject({ remotes: [], packages: ['npm @x/y'] });
    expect(page.skipped).toEqual([
      { name: 'io.example/script', reason: 'its URL must use https:// (got javascript:)' },
      {
        name: 'io.example/clear',
        reason: expect.stringContaining('its URL must use https:// for a remote host') as string,
      },
      { name: 'io.example/odd', reason: 'malformed entry (remotes)' },
      { name: 'io.example/ws', reason: 'transport "websocket" is not one a browser can use' },
    ]);
  });

  it('says so when the registry answers HTML, answers too much, or does not answer', async () => {
    const html = (await directory({ servers: [], mode: 'html' })).directory;
    await expect(html.search('', undefined, never)).rejects.toMatchObject({
      reason: 'not-json',
      message: expect.stringContaining('did not answer with JSON') as string,
    });
    const huge = (await directory({ servers: [], mode: 'huge' })).directory;
    await expect(huge.search('', undefined, never)).rejects.toMatchObject({ reason: 'too-large' });
    const slow = (await directory({ servers: [], mode: 'hang' }, 200)).directory;
    await expect(slow.search('', undefined, never)).rejects.toMatchObject({
      reason: 'timeout',
      message: expect.stringContaining('did not answer in time') as string,
    });
  });

  it('says the registry cannot be reached when nothing listens', async () => {
    const { registry } = await directory({ servers: [] });
    await registry.stop();
    const dir = createServerDirectory({ fetch: globalThis.fetch, endpoint: registry.url });
    const error = await dir.search('x', undefined, never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DirectoryError);
    expect(error).toMatchObject({ reason: 'unreachable' });
  });

  it('a search the person replaced is cancelled, not reported as a failure', async () => {
    const { directory: dir } = await directory({ servers: [], mode: 'hang' });
    const typing = new AbortController();
    const pending = dir.search('wea', undefined, typing.signal);
    typing.abort(new DOMException('replaced', 'AbortError'));
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('keeps a base URL that already names the servers endpoint', () => {
    expect(serversUrl('https://r.example.com').href).toBe('https://r.example.com/v0/servers');
    expect(serversUrl('https://r.example.com/api/').href).toBe('https://r.example.com/api/v0/servers');
    expect(serversUrl('https://r.example.com/v0.1/servers').href).toBe('https://r.example.com/v0.1/servers');
  });
});
