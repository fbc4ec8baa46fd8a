// Configuration export, and importing the person's switches for the app's servers (config-transfer.ts).
import { describe, expect, it } from 'vitest';
import { configTransferHarness, fileWith, okReport, SECRETS } from '../../test/fakes/config-transfer-harness';
import { ConfigFile } from '../domain/config-file';
import { BEARER_SLOT, headerSlot } from '../domain/server-config';
import { OAUTH_SLOTS } from '../mcp/oauth-provider';
import { API_KEY_SLOT, MODEL_API_OWNER } from '../storage/vault';
import { exportConfiguration, importConfiguration, type ConfigTransferDeps } from './config-transfer';

const { openProfile, addServer, mcpServer } = configTransferHarness();

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
    const mcp = await mcpServer();
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
