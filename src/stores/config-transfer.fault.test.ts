import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStorageRegistry } from '../../test/fakes/test-app';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import { startTestMcpServer, type TestMcpServer } from '../../test/fixtures/test-mcp-server';
import { ConfigFile, MAX_CONFIG_FILE_BYTES } from '../domain/config-file';
import { BEARER_SLOT, headerSlot } from '../domain/server-config';
import type { Registry } from '../mcp/registry';
import { OAUTH_SLOTS } from '../mcp/oauth-provider';
import { MODEL_API_OWNER } from '../storage/vault';
import {
  exportConfiguration,
  importConfiguration,
  storeServerSecret,
  type ConfigTransferDeps,
  type ImportReport,
} from './config-transfer';
import { API_KEY_SLOT } from '../storage/vault';

const SECRETS = {
  apiKey: 'sk-ant-api03-SECRET-KEY-1234',
  bearer: 'bearer-SECRET-token-5678',
  header: 'header-SECRET-value-9012',
  clientSecret: 'client-SECRET-3456',
  oauthTokens: '{"access_token":"oauth-SECRET-access","refresh_token":"oauth-SECRET-refresh"}',
};

let opened: TestStorage;
let mcp: TestMcpServer | undefined;
const registries: Registry[] = [];

beforeEach(async () => {
  opened = await openTestStorage({ now: () => Date.parse('2026-11-24T10:00:00Z') });
});
afterEach(async () => {
  for (const registry of registries.splice(0)) await registry.close();
  opened.close();
  await mcp?.stop();
  mcp = undefined;
});

/** A profile with its registry, as the app opens it. */
async function openProfile(name: string): Promise<ConfigTransferDeps> {
  const { storage } = opened;
  const profile =
    (await storage.profiles.list()).items.find((p) => p.name === name) ?? (await storage.profiles.create({ name }));
  const registry = createStorageRegistry(storage, profile.id);
  registries.push(registry);
  for (const server of (await storage.profiles.listServers(profile.id)).items) await registry.register(server, 'user');
  return { storage, registry, profileId: profile.id, now: () => Date.parse('2026-11-24T10:00:00Z') };
}

async function addServer(deps: ConfigTransferDeps, server: Parameters<Registry['register']>[0]) {
  await deps.registry.register(server, 'user');
  await deps.storage.profiles.saveServer(deps.profileId, server);
}

const fileWith = (parts: Record<string, unknown>) =>
  JSON.stringify({ format: 'mcp-agent-config', version: 1, exportedAt: '2026-11-24T10:00:00.000Z', ...parts });
const okReport = (report: ImportReport) => {
  if (!report.ok) throw new Error(`import refused: ${report.message}`);
  return report;
};

describe('configuration export', () => {
  it('holds preferences, servers with their auth kind and the default set, and none of the secrets stored', async () => {
    const deps = await openProfile('Sam');
    const { storage, profileId } = deps;
    await addServer(deps, {
      id: 'weather',
      name: 'Weather',
      url: 'https://weather.example/mcp',
      auth: { kind: 'bearer' },
    });
    await addServer(deps, {
      id: 'crm',
      name: 'CRM',
      url: 'https://crm.example/mcp',
      auth: { kind: 'headers', headerNames: ['X-Api-Key'] },
    });
    await addServer(deps, {
      id: 'docs',
      name: 'Docs',
      url: 'https://docs.example/mcp',
      auth: { kind: 'oauth', clientId: 'public-client-id' },
    });
    await storage.vault.put({ profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT }, SECRETS.apiKey);
    await storage.vault.put({ profileId, owner: 'weather', slot: BEARER_SLOT }, SECRETS.bearer);
    await storage.vault.put({ profileId, owner: 'crm', slot: headerSlot('X-Api-Key') }, SECRETS.header);
    await storage.vault.put({ profileId, owner: 'docs', slot: OAUTH_SLOTS.clientSecret }, SECRETS.clientSecret);
    await storage.vault.put({ profileId, owner: 'docs', slot: OAUTH_SLOTS.tokens }, SECRETS.oauthTokens);
    await storage.profiles.update(profileId, (p) => ({
      ...p,
      defaultServerIds: ['weather'],
      preferences: { ...p.preferences, theme: 'dark', model: 'claude-opus-5', toolSearch: { preloadCount: 5 } },
    }));

    const file = await exportConfiguration(deps);

    for (const secret of Object.values(SECRETS)) expect(file.text).not.toContain(secret);
    expect(file.text).not.toMatch(/SECRET/);
    expect(file.name).toBe('mcp-agent-config-sam-2026-11-24.json');
    const parsed = ConfigFile.parse(JSON.parse(file.text));
    expect(parsed.preferences).toEqual({ model: 'claude-opus-5', theme: 'dark', toolSearch: { preloadCount: 5 } });
    expect(parsed.servers.map((s) => [s.name, s.auth])).toEqual([
      ['CRM', { kind: 'headers', headerNames: ['X-Api-Key'] }],
      ['Docs', { kind: 'oauth', clientId: 'public-client-id' }],
      ['Weather', { kind: 'bearer' }],
    ]);
    expect(parsed.defaultServerIds).toEqual(['weather']);
    expect(parsed).not.toHaveProperty('appServerToolOverrides');
  });

  it("holds the person's own switches for the app's servers", async () => {
    const deps = await openProfile('Sam');
    await deps.storage.profiles.update(deps.profileId, (p) => ({
      ...p,
      appServerToolOverrides: { company: { 'delete-all': { enabled: false }, echo: { description: 'Says it back.' } } },
    }));
    const parsed = ConfigFile.parse(JSON.parse((await exportConfiguration(deps)).text));
    expect(parsed.appServerToolOverrides).toEqual({
      company: { 'delete-all': { enabled: false }, echo: { description: 'Says it back.' } },
    });
  });
});

describe("importing the person's switches for the app's servers", () => {
  /** A profile of a browser whose app config offers "Company" (the test server, listed) and "Offline" (never listed). */
  async function withAppServers(): Promise<ConfigTransferDeps> {
    mcp = await startTestMcpServer();
    const deps = await openProfile('Alex');
    await deps.registry.register(
      { id: 'company', name: 'Company', url: mcp.url, toolOverrides: { slow: { enabled: false } } },
      'app',
    );
    await deps.registry.register({ id: 'offline', name: 'Offline', url: 'https://offline.example/mcp' }, 'app');
    await deps.registry.connect('company');
    return deps;
  }
  const stored = async (deps: ConfigTransferDeps) =>
    (await deps.storage.profiles.get(deps.profileId))?.appServerToolOverrides;

  it('sets them tool by tool over the stored ones and applies them at once; unknown servers and tools are reported', async () => {
    const deps = await withAppServers();
    await addServer(deps, { id: 'mine', name: 'Mine', url: 'https://mine.example/mcp' });
    await deps.storage.profiles.update(deps.profileId, (p) => ({
      ...p,
      appServerToolOverrides: { company: { 'bad-schema': { enabled: false }, slow: { description: 'Kept.' } } },
    }));
    deps.registry.setAppToolOverrides((await stored(deps))!);
    const report = okReport(
      await importConfiguration(
        deps,
        fileWith({
          appServerToolOverrides: {
            company: { add: { enabled: false }, 'bad-schema': {}, ghost: { enabled: false } },
            offline: { anything: { description: 'Mine.' } },
            mine: { x: { enabled: false } },
            gone: { echo: { enabled: false } },
          },
        }),
      ),
    );
    expect(report.imported).toEqual([
      'Your tool settings for "Company": add off (was on); bad-schema on (was off)',
      'Your tool settings for "Offline": anything on, described as "Mine." (was on)',
    ]);
    expect(report.rejected).toEqual([
      { subject: 'Tool "ghost" of "Company"', reasons: ['the server does not list a tool of this name'] },
      {
        subject: 'Tool settings for app server "mine"',
        reasons: [
          '"Mine" here is a server you added, not one the app provides; its tool settings travel with the server itself',
        ],
      },
      { subject: 'Tool settings for app server "gone"', reasons: ['no server the app provides has this id here'] },
    ]);
    expect(await stored(deps)).toEqual({
      company: { slow: { description: 'Kept.' }, add: { enabled: false } },
      offline: { anything: { description: 'Mine.' } },
    });
    expect(deps.registry.tools(['company']).map((t) => t.toolName)).toEqual(['bad-schema']);
    expect((await deps.registry.callTool('company', 'add', { a: 1, b: 2 })).failure?.kind).toBe('tool-disabled');
    expect(deps.registry.get('company')?.config.toolOverrides).toEqual({ slow: { enabled: false } });
    expect(deps.registry.get('mine')?.config.toolOverrides).toEqual({});
  });

  it('what an export wrote, imported in another browser with the same app, gives the same switches', async () => {
    const deps = await withAppServers();
    await deps.storage.profiles.update(deps.profileId, (p) => ({
      ...p,
      appServerToolOverrides: { company: { add: { enabled: false } } },
    }));
    const text = (await exportConfiguration(deps)).text;
    await deps.storage.profiles.update(deps.profileId, (p) => ({ ...p, appServerToolOverrides: {} }));
    deps.registry.setAppToolOverrides({});
    const report = okReport(await importConfiguration(deps, text));
    expect(report.rejected).toEqual([]);
    expect(await stored(deps)).toEqual({ company: { add: { enabled: false } } });
    expect(deps.registry.tools(['company']).map((t) => t.toolName)).not.toContain('add');
    expect(okReport(await importConfiguration(deps, text)).imported).toContain(
      'Your tool settings for "Company": add off (unchanged)',
    );
  });
});

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
      'Preference theme: light (was system)',
      'Preference toolSearch.strategy: regex (was the app default)',
      'Default servers: notes, weather',
    ]);
    expect(report.rejected).toEqual([
      { subject: 'Preference baseUrl', reasons: ['Base URL must be an http(s) URL'] },
      {
        subject: 'Preference toolSearch.loadedToolCap',
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
    expect(report.imported).toEqual(['Preference theme: dark (was system)']);
    expect(report.rejected).toEqual([
      {
        subject: 'Preference baseUrl',
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
    expect(same.imported).toEqual(['Preference baseUrl: https://proxy.example (unchanged)']);
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
    mcp = await startTestMcpServer({ requireBearer: 'the-right-token' });
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
