import { assertNever } from './errors';
import { z } from 'zod';
import { ServerConfig, ServerId, type AuthConfig } from './server-config';
import { AppServerToolOverrides, normalizedOverride } from './tool-overrides';
import { definedOverrides, ToolSearchOverrides } from './tool-search-settings';
import { UserPreferences, type UserConfig } from './user-config';

/** The `format` field that marks a configuration export of this app. */
export const CONFIG_FILE_FORMAT = 'mcp-agent-config';
/** The export format's version; an import refuses files of a later version. */
export const CONFIG_FILE_VERSION = 1;
/** Largest file an import reads: a real configuration is a few kilobytes. */
export const MAX_CONFIG_FILE_BYTES = 1_000_000;
/** Servers one import adds at most. */
export const MAX_IMPORTED_SERVERS = 100;

/** Preferences as exported: only the fields the profile has set (unset ones keep following the app's defaults). */
export const ExportedPreferences = z.object({
  model: UserPreferences.shape.model,
  baseUrl: UserPreferences.shape.baseUrl,
  maxTokens: UserPreferences.shape.maxTokens,
  theme: UserPreferences.shape.theme.optional(),
  toolSearch: ToolSearchOverrides.optional(),
  relayUrl: UserPreferences.shape.relayUrl,
});
export type ExportedPreferences = z.infer<typeof ExportedPreferences>;

/**
 * A configuration export, version 1: a profile's preferences, its own servers, its default server set and its
 * own tool switches for the app's servers (an app before those reports that field as ignored). Never a secret:
 * no API key, tokens, header values or client secrets (those live only in the vault).
 */
export const ConfigFile = z.object({
  format: z.literal(CONFIG_FILE_FORMAT),
  version: z.literal(CONFIG_FILE_VERSION),
  exportedAt: z.string(),
  profileName: z.string().optional(),
  preferences: ExportedPreferences,
  servers: z.array(ServerConfig),
  defaultServerIds: z.array(ServerId),
  appServerToolOverrides: AppServerToolOverrides.optional(),
});
export type ConfigFile = z.infer<typeof ConfigFile>;

/** The auth settings of a server, field by field, so that nothing added to AuthConfig later leaks by accident. */
function exportAuth(auth: AuthConfig): AuthConfig {
  switch (auth.kind) {
    case 'none':
    case 'bearer':
      return { kind: auth.kind };
    case 'headers':
      return { kind: 'headers', headerNames: [...auth.headerNames] };
    case 'oauth':
      // A client id is public (it is sent in the browser's address bar); the client secret stays in the vault.
      return {
        kind: 'oauth',
        ...(auth.clientId ? { clientId: auth.clientId } : {}),
        ...(auth.scopes ? { scopes: [...auth.scopes] } : {}),
      };
    default:
      return assertNever(auth);
  }
}

/** One server as exported, built from a list of allowed fields. */
function exportServer(server: ServerConfig): ServerConfig {
  return {
    id: server.id,
    name: server.name,
    url: server.url,
    transport: server.transport,
    auth: exportAuth(server.auth),
    enabled: server.enabled,
    toolOverrides: server.toolOverrides,
    deferTools: server.deferTools,
    viaRelay: server.viaRelay,
  };
}

/** The person's tool overrides for app servers, each cut to what differs from the default; servers without any left out. */
function exportAppToolOverrides(all: AppServerToolOverrides): AppServerToolOverrides {
  return Object.fromEntries(
    Object.entries(all).flatMap(([serverId, tools]) => {
      const kept = Object.entries(tools).flatMap(([name, override]) => {
        const normalized = normalizedOverride(override);
        return normalized ? [[name, normalized] as const] : [];
      });
      return kept.length > 0 ? [[serverId, Object.fromEntries(kept)] as const] : [];
    }),
  );
}

/** The export of a profile with its own servers. */
export function buildConfigFile(profile: UserConfig, servers: readonly ServerConfig[], exportedAt: Date): ConfigFile {
  const prefs = profile.preferences;
  const toolSearch = definedOverrides(prefs.toolSearch);
  const appServerToolOverrides = exportAppToolOverrides(profile.appServerToolOverrides);
  return {
    format: CONFIG_FILE_FORMAT,
    version: CONFIG_FILE_VERSION,
    exportedAt: exportedAt.toISOString(),
    profileName: profile.name,
    preferences: {
      ...(prefs.model !== undefined ? { model: prefs.model } : {}),
      ...(prefs.baseUrl !== undefined ? { baseUrl: prefs.baseUrl } : {}),
      ...(prefs.maxTokens !== undefined ? { maxTokens: prefs.maxTokens } : {}),
      theme: prefs.theme,
      ...(Object.keys(toolSearch).length > 0 ? { toolSearch } : {}),
      ...(prefs.relayUrl !== undefined ? { relayUrl: prefs.relayUrl } : {}),
    },
    servers: servers.map(exportServer),
    defaultServerIds: [...profile.defaultServerIds],
    ...(Object.keys(appServerToolOverrides).length > 0 ? { appServerToolOverrides } : {}),
  };
}
