import type { ImportPlan, ImportProblem } from './config-import';
import { MAX_IMPORTED_SERVERS } from './config-file';
import { BEARER_SLOT, headerSlot, ServerConfig, type AuthConfig, type TransportPreference } from './server-config';
import { toFieldIssues } from './validation';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Fields of an `mcpServers` entry this app reads; the rest are listed as left out. */
const ENTRY_FIELDS = new Set(['url', 'serverUrl', 'type', 'transport', 'headers', 'disabled']);
/** A `${...}` placeholder (Claude Desktop/Cursor `${env:X}` or `${X}`, VS Code `${input:x}`). */
const PLACEHOLDER = /\$\{[^}]*\}/;

/**
 * The `mcpServers` map of a Claude Desktop / Cursor file, VS Code's `servers` (.vscode/mcp.json) or `mcp.servers`
 * (settings.json), or undefined when the JSON is none of these.
 */
export function mcpServersOf(data: unknown): { readonly entries: Json; readonly ignored: string[] } | undefined {
  if (!isObject(data) || 'format' in data) return undefined;
  if (isObject(data.mcpServers)) return { entries: data.mcpServers, ignored: otherKeys(data, 'mcpServers') };
  if (isObject(data.servers) && !Array.isArray(data.servers))
    return { entries: data.servers, ignored: otherKeys(data, 'servers') };
  if (isObject(data.mcp) && isObject(data.mcp.servers))
    return { entries: data.mcp.servers, ignored: otherKeys(data, 'mcp') };
  return undefined;
}

function otherKeys(data: Json, used: string): string[] {
  return Object.keys(data)
    .filter((k) => k !== used)
    .map((k) => k.slice(0, 60));
}

/**
 * Reads the standard `mcpServers` JSON into an import plan: remote entries become servers (header values with a
 * `${...}` placeholder are asked for after the import; literal ones go to the vault, never into the config), stdio
 * entries are refused as needing a local bridge.
 */
export function readMcpServers(entries: Json, ignoredTop: readonly string[]): ImportPlan {
  const rejected: ImportProblem[] = [];
  const ignored = [...ignoredTop];
  const servers: ServerConfig[] = [];
  const secrets: Record<string, Record<string, string>> = {};
  const placeholders: Record<string, Record<string, string>> = {};
  const taken = new Set<string>();
  Object.entries(entries).forEach(([key, raw], index) => {
    const name = key.trim().slice(0, 64) || `Server ${index + 1}`;
    const subject = `Server "${name}"`;
    if (index >= MAX_IMPORTED_SERVERS) {
      rejected.push({ subject, reasons: [`an import adds at most ${MAX_IMPORTED_SERVERS} servers`] });
      return;
    }
    if (!isObject(raw)) {
      rejected.push({ subject, reasons: ['must be an object'] });
      return;
    }
    const type =
      typeof raw.type === 'string' ? raw.type : typeof raw.transport === 'string' ? raw.transport : undefined;
    if (typeof raw.command === 'string' || type === 'stdio') {
      rejected.push({
        subject,
        reasons: [
          'a local (stdio) server: a browser cannot start programs, so it needs a local bridge that serves it over HTTP (then add that URL); skipped',
        ],
      });
      return;
    }
    const url = typeof raw.url === 'string' ? raw.url : typeof raw.serverUrl === 'string' ? raw.serverUrl : undefined;
    if (!url) {
      rejected.push({ subject, reasons: ['has neither a "url" nor a "command"'] });
      return;
    }
    ignored.push(
      ...Object.keys(raw)
        .filter((k) => !ENTRY_FIELDS.has(k))
        .map((k) => `${key.slice(0, 40)}.${k.slice(0, 40)}`),
    );
    const transport = transportOf(type);
    if (!transport) {
      rejected.push({ subject, reasons: [`type "${String(type).slice(0, 40)}" is not http, streamable-http or sse`] });
      return;
    }
    const headers = readHeaders(raw.headers);
    if (typeof headers === 'string') {
      rejected.push({ subject, reasons: [headers] });
      return;
    }
    const id = uniqueId(name, taken);
    const parsed = ServerConfig.safeParse({
      id,
      name,
      url: url.trim(),
      transport,
      auth: authOf(headers),
      enabled: raw.disabled !== true,
    });
    if (!parsed.success) {
      rejected.push({
        subject,
        reasons: toFieldIssues(parsed.error).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)),
      });
      return;
    }
    taken.add(id);
    servers.push(parsed.data);
    const { stored, asked } = slotsOf(headers, parsed.data.auth);
    if (Object.keys(stored).length > 0) secrets[id] = stored;
    if (Object.keys(asked).length > 0) placeholders[id] = asked;
  });
  return {
    preferences: {},
    servers,
    defaultServerIds: [],
    appServerToolOverrides: {},
    rejected,
    ignored: ignored.slice(0, 20),
    secrets,
    placeholders,
  };
}

function transportOf(type: string | undefined): TransportPreference | undefined {
  if (type === undefined) return 'auto';
  const normalized = type.toLowerCase().replace(/[-_]/g, '');
  if (normalized === 'http' || normalized === 'streamablehttp') return 'http';
  if (normalized === 'sse') return 'sse';
  return undefined;
}

function readHeaders(value: unknown): Record<string, string> | string {
  if (value === undefined) return {};
  if (!isObject(value)) return '"headers" must be an object of names and values';
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(value)) {
    if (typeof raw !== 'string') return `header "${name.slice(0, 40)}" must have a text value`;
    out[name.trim()] = raw;
  }
  return out;
}

/** Only `Authorization: Bearer …` is a bearer token; any other header set is kept as custom headers. */
function authOf(headers: Record<string, string>): AuthConfig {
  const names = Object.keys(headers);
  if (names.length === 0) return { kind: 'none' };
  if (
    names.length === 1 &&
    names[0]?.toLowerCase() === 'authorization' &&
    /^bearer\s+\S/i.test(headers[names[0]] ?? '')
  )
    return { kind: 'bearer' };
  return { kind: 'headers', headerNames: names };
}

/** Vault slot → literal value (stored encrypted), and slot → the placeholder to ask the person for. */
function slotsOf(
  headers: Record<string, string>,
  auth: AuthConfig,
): { stored: Record<string, string>; asked: Record<string, string> } {
  const stored: Record<string, string> = {};
  const asked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const secret = auth.kind === 'bearer' ? value.replace(/^bearer\s+/i, '') : value;
    const slot = auth.kind === 'bearer' ? BEARER_SLOT : headerSlot(name);
    const placeholder = PLACEHOLDER.exec(secret)?.[0];
    if (placeholder) asked[slot] = placeholder.slice(0, 80);
    else stored[slot] = secret;
  }
  return { stored, asked };
}

function uniqueId(name: string, taken: ReadonlySet<string>): string {
  const base =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'server';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}
