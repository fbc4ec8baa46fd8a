import { buildConfigFile } from '../domain/config-file';
import { readConfigFile, type ImportPlan, type ImportProblem } from '../domain/config-import';
import { describeError, NotFoundError, assertNever } from '../domain/errors';
import {
  BEARER_SLOT,
  headerSlot,
  headerValueProblem,
  type ServerConfig,
  type ToolOverride,
} from '../domain/server-config';
import {
  normalizedOverride,
  ownEntry,
  withServerOverrides,
  withToolOverride,
  type AppServerToolOverrides,
  type PersonalToolOverrides,
} from '../domain/tool-overrides';
import { serverOrigin } from '../domain/server-trust';
import { preferenceName } from '../domain/preference-names';
import type { UserPreferences } from '../domain/user-config';
import type { Registry } from '../mcp/registry';
import type { Storage } from '../storage/storage';
import { serverIdFromName } from './servers-store';

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

/** An imported server that cannot work until the person gives it a secret or signs in. */
export type NeedsSecret =
  | { readonly serverId: string; readonly serverName: string; readonly kind: 'bearer' }
  | {
      readonly serverId: string;
      readonly serverName: string;
      readonly kind: 'headers';
      readonly headerNames: readonly string[];
    }
  | { readonly serverId: string; readonly serverName: string; readonly kind: 'oauth' };

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
  return { ok: true, imported, rejected, ignored: plan.ignored, needsSecrets };
}

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
  let refusedBaseUrl: string | undefined;
  await deps.storage.profiles.update(deps.profileId, (p) => {
    before = p.preferences;
    // A file must not choose where the API key goes: a new base URL is left for the person to enter.
    if (offered.baseUrl !== undefined && offered.baseUrl !== p.preferences.baseUrl)
      ({ baseUrl: refusedBaseUrl, ...rest } = offered);
    return {
      ...p,
      preferences: { ...p.preferences, ...rest, toolSearch: { ...p.preferences.toolSearch, ...toolSearch } },
      defaultServerIds: [...new Set([...p.defaultServerIds, ...defaults])],
    };
  });
  if (refusedBaseUrl !== undefined) {
    rejected.push({
      subject: preferenceName('baseUrl'),
      reasons: [
        `not imported: the API key stored in this browser would be sent to ${refusedBaseUrl}. If you trust that endpoint, enter it under Settings yourself.`,
      ],
    });
  }
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

/**
 * Sets the file's tool switches and descriptions for the app's servers here (by server id, tool by tool over the
 * stored ones, in one write) and applies them. An id that is no app server here, or a tool its known list lacks,
 * is reported and skipped.
 */
async function applyAppToolOverrides(
  deps: ConfigTransferDeps,
  offered: AppServerToolOverrides,
  imported: string[],
  rejected: ImportProblem[],
): Promise<void> {
  const accepted: [string, string, PersonalToolOverrides][] = [];
  for (const [serverId, tools] of Object.entries(offered)) {
    const subject = `Tool settings for app server "${serverId}"`;
    const here = deps.registry.get(serverId);
    if (!here) {
      rejected.push({ subject, reasons: ['no server the app provides has this id here'] });
      continue;
    }
    if (here.scope !== 'app') {
      rejected.push({
        subject,
        reasons: [
          `"${here.config.name}" here is a server you added, not one the app provides; its tool settings travel with the server itself`,
        ],
      });
      continue;
    }
    const known = here.catalog ? new Set(here.catalog.tools.map((tool) => tool.name)) : undefined;
    const kept = Object.entries(tools).filter(([name]) => {
      if (!known || known.has(name)) return true;
      rejected.push({
        subject: `Tool "${shortText(name)}" of "${here.config.name}"`,
        reasons: ['the server does not list a tool of this name'],
      });
      return false;
    });
    if (kept.length > 0) accepted.push([serverId, here.config.name, Object.fromEntries(kept)]);
  }
  if (accepted.length === 0) return;
  let before: AppServerToolOverrides = {};
  const saved = await deps.storage.profiles.update(deps.profileId, (p) => {
    before = p.appServerToolOverrides;
    const all = accepted.reduce((next, [serverId, , tools]) => {
      const merged = Object.entries(tools).reduce(
        (own, [name, override]) => withToolOverride(own, name, normalizedOverride(override)),
        ownEntry(next, serverId) ?? {},
      );
      return withServerOverrides(next, serverId, merged);
    }, p.appServerToolOverrides);
    return { ...p, appServerToolOverrides: all };
  });
  deps.registry.setAppToolOverrides(saved.appServerToolOverrides);
  // Each line says what each tool was, so a replaced setting is never lost without a word.
  for (const [serverId, serverName, tools] of accepted) {
    const was = ownEntry(before, serverId) ?? {};
    const lines = Object.entries(tools).map(([name, override]) => {
      const [next, previous] = [describeOverride(normalizedOverride(override)), describeOverride(ownEntry(was, name))];
      return `${shortText(name)} ${next}${next === previous ? ' (unchanged)' : ` (was ${previous})`}`;
    });
    imported.push(`Your tool settings for "${serverName}": ${lines.join('; ')}`);
  }
}

/** A tool's setting in a report line: on or off, and the own description's start when it has one. */
function describeOverride(override: ToolOverride | undefined): string {
  const state = override?.enabled === false ? 'off' : 'on';
  return override?.description !== undefined ? `${state}, described as "${shortText(override.description)}"` : state;
}

/** Text from the file as a report shows it: at most 60 characters. */
const shortText = (text: string): string => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

/**
 * Writes the header values an `mcpServers` file gave literally to the vault (never into the config) and reports it;
 * returns the slots stored, by file server id.
 */
async function storeLiteralSecrets(
  deps: ConfigTransferDeps,
  plan: ImportPlan,
  idMap: ReadonlyMap<string, string>,
  imported: string[],
  rejected: ImportProblem[],
): Promise<Map<string, Set<string>>> {
  const stored = new Map<string, Set<string>>();
  for (const [fileId, slots] of Object.entries(plan.secrets ?? {})) {
    const id = idMap.get(fileId);
    const server = plan.servers.find((s) => s.id === fileId);
    if (!id || !server) continue;
    try {
      for (const [slot, value] of Object.entries(slots))
        await deps.storage.vault.put({ profileId: deps.profileId, owner: id, slot }, value);
      stored.set(fileId, new Set(Object.keys(slots)));
      imported.push(`Server "${server.name}": its credentials from the file are stored encrypted in the vault`);
    } catch (error) {
      rejected.push({ subject: `Credentials of server "${server.name}"`, reasons: [describeError(error)] });
    }
  }
  return stored;
}

function secretNeed(server: ServerConfig, serverId: string, stored: ReadonlySet<string> = new Set()): NeedsSecret[] {
  const base = { serverId, serverName: server.name };
  switch (server.auth.kind) {
    case 'none':
      return [];
    case 'bearer':
      return stored.has(BEARER_SLOT) ? [] : [{ ...base, kind: 'bearer' }];
    case 'headers': {
      const missing = server.auth.headerNames.filter((name) => !stored.has(headerSlot(name)));
      return missing.length > 0 ? [{ ...base, kind: 'headers', headerNames: missing }] : [];
    }
    case 'oauth':
      return [{ ...base, kind: 'oauth' }];
    default:
      return assertNever(server.auth);
  }
}

/** The outcome of giving an imported server its secret. */
export interface SecretOutcome {
  readonly isStored: boolean;
  readonly isConnected: boolean;
  readonly text: string;
}

/** Stores a secret an imported server needs (vault only), then connects the server with it. */
export async function storeServerSecret(
  deps: ConfigTransferDeps,
  serverId: string,
  secret: { readonly headerName?: string; readonly value: string },
): Promise<SecretOutcome> {
  const value = secret.value.trim();
  if (!value) return { isStored: false, isConnected: false, text: 'Enter a value first.' };
  // Checked as the servers form checks it: fetch would refuse the value, and the connection error would not say why.
  const problem = headerValueProblem(value);
  if (problem)
    return {
      isStored: false,
      isConnected: false,
      text: `${secret.headerName ? `${secret.headerName} value` : 'Bearer token'} ${problem}`,
    };
  if (!deps.registry.get(serverId))
    return { isStored: false, isConnected: false, text: 'That server no longer exists.' };
  try {
    await deps.storage.vault.put(
      {
        profileId: deps.profileId,
        owner: serverId,
        slot: secret.headerName ? headerSlot(secret.headerName) : BEARER_SLOT,
      },
      value,
    );
    await deps.registry.disconnect(serverId); // A connection opened before reads the secret only when it connects again.
    const state = await deps.registry.connect(serverId);
    return state.status === 'connected'
      ? { isStored: true, isConnected: true, text: 'Stored; the server is connected.' }
      : {
          isStored: true,
          isConnected: false,
          text: `Stored, but the server did not connect: ${state.lastError?.message ?? state.status}`,
        };
  } catch (error) {
    return { isStored: false, isConnected: false, text: describeError(error) };
  }
}
