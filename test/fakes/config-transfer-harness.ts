// Configuration export and import (src/stores/config-transfer.ts) over real storage (fake-indexeddb, real vault),
// the real registry and MCP test servers on 127.0.0.1: one setup for their fault tests.
import { afterEach, beforeEach } from 'vitest';
import type { Registry } from '../../src/mcp/registry';
import type { ConfigTransferDeps, ImportReport } from '../../src/stores/config-transfer';
import { startTestMcpServer, type TestMcpServer } from '../fixtures/test-mcp-server';
import { createStorageRegistry } from './test-app';
import { openTestStorage, type TestStorage } from './test-storage';

/** Secrets stored before an export: none may appear in the file. */
export const SECRETS = {
  apiKey: 'sk-ant-api03-SECRET-KEY-1234',
  bearer: 'bearer-SECRET-token-5678',
  header: 'header-SECRET-value-9012',
  clientSecret: 'client-SECRET-3456',
  oauthTokens: '{"access_token":"oauth-SECRET-access","refresh_token":"oauth-SECRET-refresh"}',
};

const NOW = Date.parse('2026-11-24T10:00:00Z');

/** A configuration file with `parts`. */
export const fileWith = (parts: Record<string, unknown>) =>
  JSON.stringify({ format: 'mcp-agent-config', version: 1, exportedAt: '2026-11-24T10:00:00.000Z', ...parts });

/** The report of an import that was not refused as a whole. */
export const okReport = (report: ImportReport) => {
  if (!report.ok) throw new Error(`import refused: ${report.message}`);
  return report;
};

/** Fresh storage for each test (call at a test file's top level); what a test opens is closed after it. */
export function configTransferHarness() {
  let opened: TestStorage;
  const servers: TestMcpServer[] = [];
  const registries: Registry[] = [];
  beforeEach(async () => {
    opened = await openTestStorage({ now: () => NOW });
  });
  afterEach(async () => {
    for (const registry of registries.splice(0)) await registry.close();
    opened.close();
    for (const server of servers.splice(0)) await server.stop();
  });

  /** A profile with its registry, as the app opens it. */
  async function openProfile(name: string): Promise<ConfigTransferDeps> {
    const { storage } = opened;
    const profile =
      (await storage.profiles.list()).items.find((p) => p.name === name) ?? (await storage.profiles.create({ name }));
    const registry = createStorageRegistry(storage, profile.id);
    registries.push(registry);
    for (const server of (await storage.profiles.listServers(profile.id)).items)
      await registry.register(server, 'user');
    return { storage, registry, profileId: profile.id, now: () => NOW };
  }

  async function addServer(deps: ConfigTransferDeps, server: Parameters<Registry['register']>[0]) {
    await deps.registry.register(server, 'user');
    await deps.storage.profiles.saveServer(deps.profileId, server);
  }

  async function mcpServer(options?: Parameters<typeof startTestMcpServer>[0]): Promise<TestMcpServer> {
    const server = await startTestMcpServer(options);
    servers.push(server);
    return server;
  }
  return { openProfile, addServer, mcpServer };
}
