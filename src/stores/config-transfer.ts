import { buildConfigFile } from '../domain/config-file';
import { readConfigFile, type ImportPlan, type ImportProblem } from '../domain/config-import';
import { describeError, NotFoundError } from '../domain/errors';
import type { ServerConfig } from '../domain/server-config';
import { serverOrigin } from '../domain/server-trust';
import { preferenceName } from '../domain/preference-names';
import type { UserPreferences } from '../domain/user-config';
import type { Registry } from '../mcp/registry';
import type { Storage } from '../storage/storage';
import { secretNeed, storeLiteralSecrets, type NeedsSecret } from './config-import-secrets';
import { applyAppToolOverrides } from './config-import-tools';
import { serverIdFromName } from './servers-store';

export { storeServerSecret, type NeedsSecret, type SecretOutcome } from './config-import-secrets';

export interface ConfigTransferDeps {
  readonly storage: Storage;
  readonly registry: Registry;
  readonly profileId: string;
  readonly now: () => number;
}

/** A file to hand to the person's downloads. */
export interface ExportedFile {
  readonly name: string;
  readonly type: string;
  readonly text: string;
}

/** What an import did: refused as a whole (`message`), or each part imported or rejected with its reasons. */
export type ImportReport =
  | { readonly ok: false; readonly message: string }
  | {
      readonly ok: true;
      readonly imported: readonly string[];
      readonly rejected: readonly ImportProblem[];
      readonly ignored: readonly string[];
      readonly needsSecrets: readonly NeedsSecret[];
    };

/** The profile's preferences, own servers, default servers and app-server tool switches as a versioned JSON file, without any secret. */
export async function exportConfiguration(deps: ConfigTransferDeps): Promise<ExportedFile> {
  const profile = await deps.storage.profiles.get(deps.profileId);
  if (!profile) throw new NotFoundError('profile', deps.profileId);
  const { items: servers } = await deps.storage.profiles.listServers(deps.profileId);
  const file = buildConfigFile(profile, servers, new Date(deps.now()));
  const slug =
    profile.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'profile';
  return {
    name: `mcp-agent-config-${slug}-${file.exportedAt.slice(0, 10)}.json`,
    type: 'application/json',
    text: `${JSON.stringify(file, null, 2)}\n`,
  };
}

/**
 * Imports a configuration file into the open profile: valid parts are added, bad ones reported and skipped.
 * Nothing stored is replaced except the preferences the file sets: a server whose name is taken stays as it is.
 */
export async function importConfiguration(deps: ConfigTransferDeps, text: string): Promise<ImportReport> {
  const read = readConfigFile(text);
  if (!read.ok) return read;
  const { plan } = read;
  const rejected = [...plan.rejected];
  const imported: string[] = [];
  const idMap = await importServers(deps, plan.servers, imported, rejected);
  try {
    await applyPreferences(deps, plan, idMap, imported, rejected);
  } catch (error) {
    rejected.push({ subject: 'Preferences and default servers', reasons: [describeError(error)] });
  }
  try {
    await applyAppToolOverrides(deps, plan.appServerToolOverrides, imported, rejected);
  } catch (error) {
    rejected.push({ subject: 'Tool settings for app servers', reasons: [describeError(error)] });
  }
  const stored = await storeLiteralSecrets(deps, plan, idMap, imported, rejected);
  const needsSecrets = plan.servers.flatMap((server) => {
    const id = idMap.get(server.id);
    return id ? secretNeed(server, id, stored.get(server.id)) : [];
  });
  for (const [fileId, slots] of Object.entries(plan.placeholders ?? {})) {
    const server = plan.servers.find((s) => s.id === fileId);
    if (server && idMap.has(fileId))
      imported.push(`Server "${server.name}" asks for ${[...new Set(Object.values(slots))].join(', ')} (enter below)`);
  }
  const relayed = plan.servers.filter((server) => server.viaRelay && idMap.has(server.id));
  if (relayed.length > 0 && deps.registry.relayUrl() === undefined)
    rejected.push({
      subject: preferenceName('relayUrl'),
      reasons: [
        `none is set in this browser, and ${relayed.map((server) => `"${server.name}"`).join(', ')} ${relayed.length === 1 ? 'goes' : 'go'} through a relay: enter the Relay URL under Settings before ${relayed.length === 1 ? 'it connects' : 'they connect'}.`,
      ],
    });
  return { ok: true, imported, rejected, ignored: plan.ignored, needsSecrets };
}

/** Preferences a file may not change, each with why: they choose where the person's secrets go. */
const GUARDED_REASON = {
  baseUrl: (url: string) =>
    `the API key stored in this browser would be sent to ${url}. If you trust that endpoint, enter it under Settings yourself.`,
  relayUrl: (url: string) =>
    `every request of the servers routed through a relay, their tokens included, would go through ${url}. If you trust that relay, enter it under Settings yourself.`,
} as const;
type GuardedPreference = keyof typeof GUARDED_REASON;
const GUARDED_PREFERENCES = Object.keys(GUARDED_REASON) as GuardedPreference[];

/** Adds each server under a free id, never over an existing name; returns file id → stored id. */
async function importServers(
  deps: ConfigTransferDeps,
  servers: readonly ServerConfig[],
  imported: string[],
  rejected: ImportProblem[],
): Promise<Map<string, string>> {
  const idMap = new Map<string, string>();
  const reserved = deps.registry
    .list()
    .filter((s) => s.scope === 'app')
    .map((s) => s.config.name);
  const retired = (await deps.storage.profiles.get(deps.profileId))?.retiredServerIds ?? {};
  for (const server of servers) {
    const subject = `Server "${server.name}"`;
    const existing = deps.registry.list().find((s) => s.config.name.toLowerCase() === server.name.toLowerCase());
    if (existing) {
      rejected.push({
        subject,
        reasons: [
          `a ${existing.scope === 'app' ? 'built-in ' : ''}server with this name already exists here; it was kept and the imported one skipped`,
        ],
      });
      continue;
    }
    // The file's id is kept unless it is in use, or a removed server had it at another origin (whose trust must not pass).
    const inUse = deps.registry.list().map((s) => s.config.id);
    const isRetiredElsewhere = retired[server.id] !== undefined && retired[server.id] !== serverOrigin(server.url);
    const isFree = !inUse.includes(server.id) && !isRetiredElsewhere;
    const avoid = new Set([...inUse, ...Object.keys(retired)]);
    const config = { ...server, id: isFree ? server.id : serverIdFromName(server.name, avoid) };
    try {
      await deps.registry.register(config, 'user');
      try {
        await deps.storage.profiles.saveServer(deps.profileId, config, reserved);
      } catch (error) {
        await deps.registry.unregister(config.id);
        throw error;
      }
      idMap.set(server.id, config.id);
      imported.push(subject);
    } catch (error) {
      rejected.push({ subject, reasons: [describeError(error)] });
    }
  }
  return idMap;
}

/** Sets the preferences the file has (in one write, with the default servers) and reports each. */
async function applyPreferences(
  deps: ConfigTransferDeps,
  plan: ImportPlan,
  idMap: ReadonlyMap<string, string>,
  imported: string[],
  rejected: ImportProblem[],
): Promise<void> {
  // An id naming a server already here counts when the file's server of that id (if any) is that same server.
  const isHere = (id: string) => {
    const here = deps.registry.get(id);
    const inFile = plan.servers.find((s) => s.id === id);
    return here !== undefined && (!inFile || inFile.name.toLowerCase() === here.config.name.toLowerCase());
  };
  const defaults = plan.defaultServerIds.flatMap((id) => {
    const mapped = idMap.get(id) ?? (isHere(id) ? id : undefined);
    if (mapped === undefined)
      rejected.push({
        subject: `Default server "${id}"`,
        reasons: ['no server with this id was imported or exists here'],
      });
    return mapped === undefined ? [] : [mapped];
  });
  const { toolSearch, ...offered } = plan.preferences;
  const changes = Object.keys(offered).length + Object.keys(toolSearch ?? {}).length;
  if (changes === 0 && defaults.length === 0) return;
  let before: UserPreferences | undefined;
  let rest = offered;
  let refused: [GuardedPreference, string][] = [];
  await deps.storage.profiles.update(deps.profileId, (p) => {
    before = p.preferences;
    // Where secrets go is left for the person to enter: a new value of a guarded preference is not taken.
    refused = GUARDED_PREFERENCES.flatMap((key) => {
      const value = offered[key];
      return value !== undefined && value !== p.preferences[key] ? [[key, value] as [GuardedPreference, string]] : [];
    });
    rest = Object.fromEntries(Object.entries(offered).filter(([key]) => !refused.some(([guarded]) => guarded === key)));
    return {
      ...p,
      preferences: { ...p.preferences, ...rest, toolSearch: { ...p.preferences.toolSearch, ...toolSearch } },
      defaultServerIds: [...new Set([...p.defaultServerIds, ...defaults])],
    };
  });
  for (const [key, value] of refused)
    rejected.push({ subject: preferenceName(key), reasons: [`not imported: ${GUARDED_REASON[key](value)}`] });
  // Each line says what the value was, so a replaced preference is never lost without a word.
  type Value = string | number | undefined;
  const line = (key: string, value: Value, previous: Value) =>
    `${preferenceName(key)}: ${String(value)}${previous === value ? ' (unchanged)' : ` (was ${previous === undefined ? 'the app default' : String(previous)})`}`;
  for (const [key, value] of Object.entries(rest) as [keyof typeof rest, Value][])
    imported.push(line(key, value, before?.[key]));
  for (const [key, value] of Object.entries(toolSearch ?? {}) as [keyof NonNullable<typeof toolSearch>, Value][])
    imported.push(line(`toolSearch.${key}`, value, before?.toolSearch[key]));
  if (defaults.length > 0) imported.push(`Default servers: ${defaults.join(', ')}`);
}
