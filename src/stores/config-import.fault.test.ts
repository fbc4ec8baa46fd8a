// Configuration import (config-transfer.ts): the good parts taken, each bad one reported, nothing stored lost.
import { describe, expect, it } from 'vitest';
import { configTransferHarness, fileWith, okReport, SECRETS } from '../../test/fakes/config-transfer-harness';
import { MAX_CONFIG_FILE_BYTES } from '../domain/config-file';
import { BEARER_SLOT, headerSlot } from '../domain/server-config';
import { API_KEY_SLOT, MODEL_API_OWNER } from '../storage/vault';
import { exportConfiguration, importConfiguration, storeServerSecret } from './config-transfer';

const { openProfile, addServer, mcpServer } = configTransferHarness();

describe('configuration import', () => {
  it('imports the good parts, reports each bad one with why, and loses nothing already stored', async () => {
    const source = await openProfile('Sam');
    await addServer(source, {
      id: 'weather',
      name: 'Weather',
      url: 'https://weather.example/mcp',
      auth: { kind: 'bearer' },
    });
    await addServer(source, { id: 'notes', name: 'Notes', url: 'https://notes.example/mcp' });
    await source.storage.profiles.update(source.profileId, (p) => ({ ...p, defaultServerIds: ['notes', 'weather'] }));
    const exported = JSON.parse((await exportConfiguration(source)).text) as Record<string, unknown> & {
      servers: unknown[];
    };
    exported.servers.push({ id: 'evil', name: 'Evil', url: 'http://evil.example/mcp', token: 'smuggled' });
    exported.preferences = {
      theme: 'light',
      baseUrl: 'ftp://nope',
      toolSearch: { loadedToolCap: 500, strategy: 'regex' },
      colour: 'red',
    };

    const target = await openProfile('Alex');
    await addServer(target, { id: 'notes', name: 'notes', url: 'https://mine.example/mcp' }); // same name, other URL: must stay as it is
    const report = okReport(await importConfiguration(target, JSON.stringify(exported)));

    expect(report.imported).toEqual([
      'Server "Weather"',
      'Theme: light (was system)',
      'Search strategy: regex (was the app default)',
      'Default servers: notes, weather',
    ]);
    expect(report.rejected).toEqual([
      { subject: 'Base URL', reasons: ['Base URL must be an http(s) URL'] },
      {
        subject: 'Loaded-tool cap',
        reasons: ['Loaded-tool cap must be a whole number from 1 to 200'],
      },
      {
        subject: 'Server "Evil"',
        reasons: [
          'url: Server URL must use https:// for a remote host; plain http:// is allowed only for localhost, since tokens would travel in clear',
        ],
      },
      {
        subject: 'Server "Notes"',
        reasons: ['a server with this name already exists here; it was kept and the imported one skipped'],
      },
    ]);
    expect(report.ignored).toEqual(['preferences.colour', 'servers.2.token']);
    expect(report.needsSecrets).toEqual([{ serverId: 'weather', serverName: 'Weather', kind: 'bearer' }]);

    const servers = (await target.storage.profiles.listServers(target.profileId)).items;
    expect(servers.map((s) => [s.name, s.url])).toEqual([
      ['notes', 'https://mine.example/mcp'],
      ['Weather', 'https://weather.example/mcp'],
    ]);
    const profile = await target.storage.profiles.get(target.profileId);
    expect(profile?.preferences).toMatchObject({ theme: 'light', toolSearch: { strategy: 'regex' } });
    expect(profile?.preferences.baseUrl).toBeUndefined();
    expect(profile?.defaultServerIds).toEqual(['notes', 'weather']); // the server of that name here counts as the same one
    expect(target.registry.get('weather')?.config.auth).toEqual({ kind: 'bearer' });
  });

  it('does not take a new base URL from a file: the API key stored here would be sent to it', async () => {
    const target = await openProfile('Alex');
    await target.storage.vault.put(
      { profileId: target.profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT },
      SECRETS.apiKey,
    );
    const report = okReport(
      await importConfiguration(
        target,
        fileWith({ preferences: { baseUrl: 'https://collector.example/v1', theme: 'dark' } }),
      ),
    );
    expect(report.imported).toEqual(['Theme: dark (was system)']);
    expect(report.rejected).toEqual([
      {
        subject: 'Base URL',
        reasons: [
          'not imported: the API key stored in this browser would be sent to https://collector.example/v1. If you trust that endpoint, enter it under Settings yourself.',
        ],
      },
    ]);
    expect((await target.storage.profiles.get(target.profileId))?.preferences.baseUrl).toBeUndefined();
    await target.storage.profiles.update(target.profileId, (p) => ({
      ...p,
      preferences: { ...p.preferences, baseUrl: 'https://proxy.example' },
    }));
    const same = okReport(
      await importConfiguration(target, fileWith({ preferences: { baseUrl: 'https://proxy.example' } })),
    );
    expect(same.imported).toEqual(['Base URL: https://proxy.example (unchanged)']);
    expect(same.rejected).toEqual([]);
  });

  it('exports the Relay URL; an import does not take a new one, and says when relayed servers have none here', async () => {
    const source = await openProfile('Sam');
    await source.storage.profiles.update(source.profileId, (p) => ({
      ...p,
      preferences: { ...p.preferences, relayUrl: 'http://127.0.0.1:8787/' },
    }));
    await addServer(source, { id: 'bare', name: 'Bare', url: 'https://bare.example/mcp', viaRelay: true });
    const file = (await exportConfiguration(source)).text;
    expect(JSON.parse(file)).toMatchObject({ preferences: { relayUrl: 'http://127.0.0.1:8787/' } });

    const target = await openProfile('Alex');
    const report = okReport(await importConfiguration(target, file));
    expect(report.imported).toContain('Server "Bare"');
    expect(report.rejected).toEqual([
      {
        subject: 'Relay URL',
        reasons: [
          'not imported: every request of the servers routed through a relay, their tokens included, would go through http://127.0.0.1:8787/. If you trust that relay, enter it under Settings yourself.',
        ],
      },
      {
        subject: 'Relay URL',
        reasons: [
          'none is set in this browser, and "Bare" goes through a relay: enter the Relay URL under Settings before it connects.',
        ],
      },
    ]);
    expect((await target.storage.profiles.get(target.profileId))?.preferences.relayUrl).toBeUndefined();
    expect(target.registry.get('bare')?.config.viaRelay).toBe(true);

    // With the same relay set here, it is taken as unchanged and nothing is missing.
    const ready = await openProfile('Kim');
    await ready.storage.profiles.update(ready.profileId, (p) => ({
      ...p,
      preferences: { ...p.preferences, relayUrl: 'http://127.0.0.1:8787/' },
    }));
    await ready.registry.setRelayUrl('http://127.0.0.1:8787/');
    const same = okReport(await importConfiguration(ready, file));
    expect(same.imported).toContain('Relay URL: http://127.0.0.1:8787/ (unchanged)');
    expect(same.rejected).toEqual([]);
  });

  it('gives a clashing id a fresh one and keeps the default set pointing at it', async () => {
    const target = await openProfile('Alex');
    await addServer(target, { id: 'search', name: 'Web search', url: 'https://a.example/mcp' });
    const report = okReport(
      await importConfiguration(
        target,
        fileWith({
          servers: [{ id: 'search', name: 'Code search', url: 'https://b.example/mcp' }],
          defaultServerIds: ['search', 'gone', 'Bad id!'],
        }),
      ),
    );
    expect(report.imported).toEqual(['Server "Code search"', 'Default servers: code-search']);
    expect(report.rejected).toEqual([
      {
        subject: 'Default server "Bad id!"',
        reasons: ['Server id may contain letters, digits, "-" and single "_" between them'],
      },
      { subject: 'Default server "gone"', reasons: ['no server with this id was imported or exists here'] },
    ]);
    expect(target.registry.get('code-search')?.config.url).toBe('https://b.example/mcp');
    expect(target.registry.get('search')?.config.url).toBe('https://a.example/mcp');
  });

  it('refuses what is not a configuration file with a clear message, and imports nothing', async () => {
    const target = await openProfile('Alex');
    const refusal = async (text: string) => {
      const report = await importConfiguration(target, text);
      return report.ok ? 'imported' : report.message;
    };
    expect(await refusal('{ not json')).toMatch(/^This file is not valid JSON/);
    expect(await refusal('[1, 2]')).toMatch(/^This is not an MCP Agent configuration file/);
    expect(await refusal(JSON.stringify({ format: 'mcp-agent-config', version: 7 }))).toMatch(
      /made by a newer version of the app \(format version 7; this one reads version 1\)/,
    );
    expect(await refusal(fileWith({ servers: [] }).padEnd(MAX_CONFIG_FILE_BYTES + 1, ' '))).toMatch(
      /^The file is too large \(1\.0 MB\)/,
    );
    expect((await target.storage.profiles.listServers(target.profileId)).items).toEqual([]);
  });

  it('a bearer server imported without its token connects once the token is given (vault only)', async () => {
    const mcp = await mcpServer({ requireBearer: 'the-right-token' });
    const target = await openProfile('Alex');
    const report = okReport(
      await importConfiguration(
        target,
        fileWith({ servers: [{ id: 'gated', name: 'Gated', url: mcp.url, auth: { kind: 'bearer' } }] }),
      ),
    );
    expect(report.needsSecrets).toEqual([{ serverId: 'gated', serverName: 'Gated', kind: 'bearer' }]);
    expect((await target.registry.connect('gated')).status).not.toBe('connected');
    expect(await storeServerSecret(target, 'gated', { value: '  ' })).toMatchObject({
      isStored: false,
      text: 'Enter a value first.',
    });
    expect(await storeServerSecret(target, 'gated', { value: 'the-right-token' })).toEqual({
      isStored: true,
      isConnected: true,
      text: 'Stored; the server is connected.',
    });
    expect(await target.storage.vault.get({ profileId: target.profileId, owner: 'gated', slot: BEARER_SLOT })).toBe(
      'the-right-token',
    );
    expect(JSON.stringify((await target.storage.profiles.listServers(target.profileId)).items)).not.toContain(
      'the-right-token',
    );
  });

  it('a token or header value that cannot be sent is refused with the reason, and nothing is stored', async () => {
    const target = await openProfile('Alex');
    await importConfiguration(
      target,
      fileWith({
        servers: [
          {
            id: 'keyed',
            name: 'Keyed',
            url: 'https://keyed.example/mcp',
            auth: { kind: 'headers', headerNames: ['X-Api-Key'] },
          },
        ],
      }),
    );
    expect(
      await storeServerSecret(target, 'keyed', { headerName: 'X-Api-Key', value: 'first-line\nsecond-line' }),
    ).toEqual({ isStored: false, isConnected: false, text: 'X-Api-Key value must be one line' });
    expect(await storeServerSecret(target, 'keyed', { headerName: 'X-Api-Key', value: 'clé-€uro' })).toEqual({
      isStored: false,
      isConnected: false,
      text: 'X-Api-Key value may contain only printable Latin-1 characters',
    });
    expect(
      await target.storage.vault.has({ profileId: target.profileId, owner: 'keyed', slot: headerSlot('X-Api-Key') }),
    ).toBe(false);
  });
});
