import type { z } from 'zod';
import { preferenceName } from './preference-names';
import {
  CONFIG_FILE_FORMAT,
  CONFIG_FILE_VERSION,
  ExportedPreferences,
  MAX_CONFIG_FILE_BYTES,
  MAX_IMPORTED_SERVERS,
} from './config-file';
import { ServerConfig, ServerId, ToolOverride } from './server-config';
import { OverriddenToolName, type AppServerToolOverrides } from './tool-overrides';
import { ToolSearchOverrides } from './tool-search-settings';
import { mcpServersOf, readMcpServers } from './mcp-servers-import';
import { toFieldIssues } from './validation';

/** Something an import left out, and why. */
export interface ImportProblem {
  /** What was left out: 'Server "Weather"', 'Base URL', 'Default server "x"'. */
  readonly subject: string;
  readonly reasons: readonly string[];
}

/** What a valid file offers, checked part by part: the good parts to import and the rejected ones. */
export interface ImportPlan {
  readonly preferences: ExportedPreferences;
  readonly servers: readonly ServerConfig[];
  readonly defaultServerIds: readonly string[];
  /** The person's tool switches for the app's servers, each checked; whether those servers exist here is the importer's to say. */
  readonly appServerToolOverrides: AppServerToolOverrides;
  readonly rejected: readonly ImportProblem[];
  /** Fields this app does not know (or never imports, like a token someone added by hand): left out. */
  readonly ignored: readonly string[];
  /** From an `mcpServers` file: header values given literally, by file server id and vault slot (vault only). */
  readonly secrets?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** From an `mcpServers` file: the `${...}` placeholder each vault slot is asked for, by file server id. */
  readonly placeholders?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

export type ReadConfigResult =
  { readonly ok: true; readonly plan: ImportPlan } | { readonly ok: false; readonly message: string };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const TOP_LEVEL = new Set([
  'format',
  'version',
  'exportedAt',
  'profileName',
  'preferences',
  'servers',
  'defaultServerIds',
  'appServerToolOverrides',
]);
const SERVER_FIELDS = new Set(Object.keys(ServerConfig.shape));
const AUTH_FIELDS = new Set(['kind', 'headerNames', 'clientId', 'scopes']);
const TOOL_OVERRIDE_FIELDS = new Set(Object.keys(ToolOverride.shape));

const describeIssues = (error: z.ZodError): string[] =>
  toFieldIssues(error).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
/** A name from the file as shown to the person: shortened, since it may be anything. */
const shortName = (name: string): string => (name.length > 60 ? `${name.slice(0, 60)}…` : name);
/** Names of fields the app does not know, shortened: they come from the file and are shown to the person. */
const unknownKeys = (value: Json, known: ReadonlySet<string>, prefix: string): string[] =>
  Object.keys(value)
    .filter((k) => !known.has(k))
    .map((k) => `${prefix}${shortName(k)}`);
/** Ignored fields listed at most; the rest are counted. */
const MAX_IGNORED_LISTED = 20;

/** Reads an export file: refuses what is not one at all, otherwise checks each part on its own. */
export function readConfigFile(text: string): ReadConfigResult {
  const parsed = parseImportText(text, MAX_CONFIG_FILE_BYTES, {
    tooLarge,
    notJson: 'This file is not valid JSON, so nothing was imported. Choose a file made by "Export configuration".',
  });
  if (!parsed.ok) return parsed;
  const { data } = parsed;
  const standard = mcpServersOf(data);
  if (standard) return { ok: true, plan: readMcpServers(standard.entries, standard.ignored) };
  if (!isObject(data) || data.format !== CONFIG_FILE_FORMAT) {
    return {
      ok: false,
      message: `This is not an MCP Agent configuration file (it has no "format": "${CONFIG_FILE_FORMAT}") nor an "mcpServers" file of Claude Desktop, Cursor or VS Code, so nothing was imported.`,
    };
  }
  if (typeof data.version !== 'number' || !Number.isInteger(data.version) || data.version < 1) {
    return { ok: false, message: 'The file has no valid "version", so nothing was imported.' };
  }
  if (data.version > CONFIG_FILE_VERSION) {
    return {
      ok: false,
      message: `The file was made by a newer version of the app (format version ${data.version}; this one reads version ${CONFIG_FILE_VERSION}). Nothing was imported.`,
    };
  }
  const rejected: ImportProblem[] = [];
  const ignored = unknownKeys(data, TOP_LEVEL, '');
  const preferences = readPreferences(data.preferences, rejected, ignored);
  const servers = readServers(data.servers, rejected, ignored);
  const defaultServerIds = readDefaultIds(data.defaultServerIds, rejected);
  const appServerToolOverrides = readAppToolOverrides(data.appServerToolOverrides, rejected, ignored);
  const listed =
    ignored.length > MAX_IGNORED_LISTED
      ? [...ignored.slice(0, MAX_IGNORED_LISTED), `and ${ignored.length - MAX_IGNORED_LISTED} more`]
      : ignored;
  return {
    ok: true,
    plan: { preferences, servers, defaultServerIds, appServerToolOverrides, rejected, ignored: listed },
  };
}

/** Human size of a refused file. */
export function tooLarge(bytes: number): string {
  return fileTooLarge(bytes, 'a configuration file', MAX_CONFIG_FILE_BYTES);
}

/** The refusal of an import file larger than its kind may be (`kind`: "a configuration file"), by its size. */
export function fileTooLarge(bytes: number, kind: string, maxBytes: number): string {
  return `The file is too large (${(bytes / 1_000_000).toFixed(1)} MB); ${kind} is at most ${maxBytes / 1_000_000} MB. Nothing was imported.`;
}

/** An import file's text as JSON: refused by its length first, then as not JSON, with the caller's words for each. */
export function parseImportText(
  text: string,
  maxChars: number,
  refusal: { readonly tooLarge: (chars: number) => string; readonly notJson: string },
): { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly message: string } {
  if (text.length > maxChars) return { ok: false, message: refusal.tooLarge(text.length) };
  try {
    return { ok: true, data: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, message: refusal.notJson };
  }
}

/** Each preference on its own: a bad one is reported and skipped, the others still count. */
function readPreferences(value: unknown, rejected: ImportProblem[], ignored: string[]): ExportedPreferences {
  if (value === undefined) return {};
  if (!isObject(value)) {
    rejected.push({ subject: 'Preferences', reasons: ['must be an object'] });
    return {};
  }
  const out: Json = {};
  const fields = ExportedPreferences.shape;
  for (const [key, raw] of Object.entries(value)) {
    if (key === 'toolSearch') {
      const toolSearch = readToolSearch(raw, rejected, ignored);
      if (toolSearch) out.toolSearch = toolSearch;
      continue;
    }
    if (!(key in fields)) {
      ignored.push(`preferences.${key}`);
      continue;
    }
    const parsed = fields[key as keyof typeof fields].safeParse(raw);
    if (parsed.success && parsed.data !== undefined) out[key] = parsed.data;
    else if (!parsed.success) rejected.push({ subject: preferenceName(key), reasons: describeIssues(parsed.error) });
  }
  return out;
}

function readToolSearch(value: unknown, rejected: ImportProblem[], ignored: string[]): ToolSearchOverrides | undefined {
  if (!isObject(value)) {
    rejected.push({ subject: preferenceName('toolSearch'), reasons: ['must be an object'] });
    return undefined;
  }
  const out: Json = {};
  const fields = ToolSearchOverrides.shape;
  for (const [key, raw] of Object.entries(value)) {
    if (!(key in fields)) {
      ignored.push(`preferences.toolSearch.${key}`);
      continue;
    }
    const parsed = fields[key as keyof typeof fields].safeParse(raw);
    if (parsed.success && parsed.data !== undefined) out[key] = parsed.data;
    else if (!parsed.success)
      rejected.push({ subject: preferenceName(`toolSearch.${key}`), reasons: describeIssues(parsed.error) });
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Each server on its own; one that appears twice in the file is taken once. */
function readServers(value: unknown, rejected: ImportProblem[], ignored: string[]): ServerConfig[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    rejected.push({ subject: 'Servers', reasons: ['must be a list'] });
    return [];
  }
  const servers: ServerConfig[] = [];
  value.forEach((raw: unknown, index) => {
    const label =
      isObject(raw) && typeof raw.name === 'string' && raw.name.trim()
        ? `Server "${raw.name.trim().slice(0, 64)}"`
        : `Server ${index + 1}`;
    if (index >= MAX_IMPORTED_SERVERS) {
      rejected.push({ subject: label, reasons: [`an import adds at most ${MAX_IMPORTED_SERVERS} servers`] });
      return;
    }
    if (!isObject(raw)) {
      rejected.push({ subject: label, reasons: ['must be an object'] });
      return;
    }
    ignored.push(...unknownKeys(raw, SERVER_FIELDS, `servers.${index}.`));
    if (isObject(raw.auth)) ignored.push(...unknownKeys(raw.auth, AUTH_FIELDS, `servers.${index}.auth.`));
    const parsed = ServerConfig.safeParse(raw);
    if (!parsed.success) {
      rejected.push({ subject: label, reasons: describeIssues(parsed.error) });
      return;
    }
    const server = parsed.data;
    const twin = servers.find((s) => s.id === server.id || s.name.toLowerCase() === server.name.toLowerCase());
    if (twin)
      rejected.push({
        subject: label,
        reasons: [
          `appears twice in the file (same ${twin.id === server.id ? 'id' : 'name'} as "${twin.name}"); the first one is imported`,
        ],
      });
    else servers.push(server);
  });
  return servers;
}

function readDefaultIds(value: unknown, rejected: ImportProblem[]): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    rejected.push({ subject: 'Default servers', reasons: ['must be a list of server ids'] });
    return [];
  }
  return value.flatMap((raw: unknown) => {
    const parsed = ServerId.safeParse(raw);
    if (parsed.success) return [parsed.data];
    rejected.push({
      subject: `Default server ${JSON.stringify(raw)?.slice(0, 60) ?? String(raw)}`,
      reasons: describeIssues(parsed.error),
    });
    return [];
  });
}

/** The person's tool switches for the app's servers, server by server and tool by tool: a bad one is reported and skipped. */
function readAppToolOverrides(value: unknown, rejected: ImportProblem[], ignored: string[]): AppServerToolOverrides {
  if (value === undefined) return {};
  if (!isObject(value)) {
    rejected.push({ subject: 'Tool settings for app servers', reasons: ['must be an object of server ids'] });
    return {};
  }
  const servers = Object.entries(value).flatMap(([serverId, tools], index) => {
    const subject = `Tool settings for app server "${shortName(serverId)}"`;
    if (index >= MAX_IMPORTED_SERVERS) {
      rejected.push({ subject, reasons: [`an import sets the tools of at most ${MAX_IMPORTED_SERVERS} app servers`] });
      return [];
    }
    const id = ServerId.safeParse(serverId);
    if (!id.success) {
      rejected.push({ subject, reasons: describeIssues(id.error) });
      return [];
    }
    if (!isObject(tools)) {
      rejected.push({ subject, reasons: ['must be an object of tool names'] });
      return [];
    }
    const kept = Object.entries(tools).flatMap(([toolName, raw]) => {
      const toolSubject = `Tool "${shortName(toolName)}" of app server "${id.data}"`;
      const name = OverriddenToolName.safeParse(toolName);
      if (!name.success) {
        rejected.push({ subject: toolSubject, reasons: describeIssues(name.error) });
        return [];
      }
      if (isObject(raw))
        ignored.push(
          ...unknownKeys(raw, TOOL_OVERRIDE_FIELDS, `appServerToolOverrides.${id.data}.${shortName(toolName)}.`),
        );
      const parsed = ToolOverride.safeParse(raw);
      if (!parsed.success) {
        rejected.push({ subject: toolSubject, reasons: describeIssues(parsed.error) });
        return [];
      }
      return [[name.data, parsed.data] as const];
    });
    // Built with fromEntries: a tool named "__proto__" stays a tool, never the object's prototype.
    return kept.length > 0 ? [[id.data, Object.fromEntries(kept)] as const] : [];
  });
  return Object.fromEntries(servers);
}
