import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStorageRegistry } from '../../test/fakes/test-app';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import { BEARER_SLOT, headerSlot } from '../domain/server-config';
import type { Registry } from '../mcp/registry';
import { importConfiguration, type ConfigTransferDeps, type ImportReport } from './config-transfer';

let opened: TestStorage;
const registries: Registry[] = [];
beforeEach(async () => {
  opened = await openTestStorage();
});
afterEach(async () => {
  for (const registry of registries.splice(0)) await registry.close();
  opened.close();
});

async function importText(data: unknown): Promise<{ report: ImportReport; deps: ConfigTransferDeps }> {
  const { storage } = opened;
  const profile = await storage.profiles.create({ name: 'Me' });
  const registry = createStorageRegistry(storage, profile.id);
  registries.push(registry);
  const deps = { storage, registry, profileId: profile.id, now: () => Date.now() };
  return { report: await importConfiguration(deps, JSON.stringify(data)), deps };
}

function ok(report: ImportReport) {
  if (!report.ok) throw new Error(report.message);
  return report;
}

describe('importing the standard mcpServers JSON', () => {
  it('Claude Desktop / Cursor: remote servers taken, stdio listed as needing a bridge, placeholders asked for', async () => {
    const { report, deps } = await importText({
      mcpServers: {
        Weather: { url: 'https://weather.example/mcp', headers: { Authorization: 'Bearer ${env:WEATHER_TOKEN}' } },
        filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
        Notes: { type: 'sse', url: 'https://notes.example/sse', headers: { 'X-Api-Key': 'literal-SECRET-42' } },
      },
    });
    const done = ok(report);
    expect(done.imported).toEqual([
      'Server "Weather"',
      'Server "Notes"',
      'Server "Notes": its credentials from the file are stored encrypted in the vault',
      'Server "Weather" asks for ${env:WEATHER_TOKEN} (enter below)',
    ]);
    expect(done.rejected).toEqual([
      {
        subject: 'Server "filesystem"',
        reasons: [
          expect.stringContaining(
            'a local (stdio) server: a browser cannot start programs, so it needs a local bridge',
          ),
        ],
      },
    ]);
    expect(done.needsSecrets).toEqual([{ serverId: 'weather', serverName: 'Weather', kind: 'bearer' }]);
    const { items } = await deps.storage.profiles.listServers(deps.profileId);
    expect(items.map((s) => [s.id, s.transport, s.auth])).toEqual([
      ['notes', 'sse', { kind: 'headers', headerNames: ['X-Api-Key'] }],
      ['weather', 'auto', { kind: 'bearer' }],
    ]);
    expect(JSON.stringify(items)).not.toContain('literal-SECRET-42');
    expect(JSON.stringify(items)).not.toContain('WEATHER_TOKEN');
    const slot = (owner: string, name: string) => ({ profileId: deps.profileId, owner, slot: name });
    expect(await deps.storage.vault.get(slot('notes', headerSlot('X-Api-Key')))).toBe('literal-SECRET-42');
    expect(await deps.storage.vault.has(slot('weather', BEARER_SLOT))).toBe(false);
  });

  it('VS Code .vscode/mcp.json: "servers" with type http, inputs left out', async () => {
    const done = ok(
      (
        await importText({
          inputs: [{ type: 'promptString', id: 'gh', password: true }],
          servers: {
            github: {
              type: 'http',
              url: 'https://api.example.com/mcp/',
              headers: { Authorization: 'Bearer ${input:gh}' },
            },
            local: { type: 'stdio', command: 'node', args: ['server.js'] },
          },
        })
      ).report,
    );
    expect(done.imported).toContain('Server "github"');
    expect(done.ignored).toEqual(['inputs']);
    expect(done.rejected.map((r) => r.subject)).toEqual(['Server "local"']);
    expect(done.needsSecrets).toEqual([{ serverId: 'github', serverName: 'github', kind: 'bearer' }]);
  });

  it('VS Code settings.json: "mcp.servers"; each bad entry refused with its reason', async () => {
    const done = ok(
      (
        await importText({
          mcp: {
            servers: {
              plain: { url: 'http://remote.example.com/mcp' },
              odd: { type: 'websocket', url: 'wss://x.example' },
              empty: {},
              fine: { type: 'streamable-http', url: 'https://fine.example/mcp', timeout: 5 },
            },
          },
        })
      ).report,
    );
    expect(done.imported).toEqual(['Server "fine"']);
    expect(done.ignored).toEqual(['fine.timeout']);
    expect(done.rejected).toEqual([
      { subject: 'Server "plain"', reasons: [expect.stringContaining('must use https:// for a remote host')] },
      { subject: 'Server "odd"', reasons: ['type "websocket" is not http, streamable-http or sse'] },
      { subject: 'Server "empty"', reasons: ['has neither a "url" nor a "command"'] },
    ]);
  });
});
