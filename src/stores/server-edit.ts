import { logFailure, silentLogger, type Logger } from '../domain/logger';
import { describeError, ValidationError } from '../domain/errors';
import { BEARER_SLOT, headerSlot, type ServerConfig } from '../domain/server-config';
import { OAUTH_SLOTS } from '../mcp/oauth-provider';
import type { Registry } from '../mcp/registry';
import type { Storage } from '../storage/storage';
import { describeConnectionError } from './server-messages';
import {
  checkServerForm,
  configFromForm,
  fieldErrorsOf,
  pendingSecrets,
  NOTHING_STORED,
  ORIGIN_CHANGED,
  type FieldErrors,
  type ServerForm,
  type StoredSecrets,
} from './server-form';

/** What the server actions work on: one profile's registry and storage. */
export interface ServerDeps {
  readonly registry: Registry;
  readonly storage: Storage;
  readonly profileId: string;
  /** Where failures the actions go on past are reported (silent when omitted). */
  readonly logger?: Logger;
}

/** The outcome of "Test connection", as the form shows it. */
export type TestOutcome =
  | { readonly ok: true; readonly text: string }
  | {
      readonly ok: false;
      readonly text?: string;
      readonly errors?: FieldErrors;
      /** The server answers and wants an OAuth sign-in, which needs it saved first: adding it is the way on. */
      readonly needsSignIn?: true;
      /** Blocked by CORS while a relay is set and the form does not use it: trying through the relay is the way on. */
      readonly offersRelay?: true;
    };

const hasErrors = (errors: FieldErrors) => Object.keys(errors).length > 0;

/** A readable, stable id from a server name ("Weather (EU)" → "weather-eu"), unique among `taken`. */
export function serverIdFromName(name: string, taken: ReadonlySet<string>): string {
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

/** Which secrets the vault holds for a server: edit forms may leave those fields blank. */
export async function storedSecretsOf(deps: ServerDeps, config: ServerConfig): Promise<StoredSecrets> {
  const has = (slot: string) => deps.storage.vault.has({ profileId: deps.profileId, owner: config.id, slot });
  const names = config.auth.kind === 'headers' ? config.auth.headerNames : [];
  const stored = await Promise.all(
    names.map(async (name) => ((await has(headerSlot(name))) ? [name.toLowerCase()] : [])),
  );
  return { hasToken: config.auth.kind === 'bearer' && (await has(BEARER_SLOT)), headerNames: new Set(stored.flat()) };
}

/** The stored secrets a form may leave blank: none once its URL leaves the server's origin (they stay with that one). */
async function secretsKeptFor(deps: ServerDeps, config: ServerConfig, formUrl: string): Promise<StoredSecrets> {
  if (originOf(formUrl) === originOf(config.url)) return storedSecretsOf(deps, config);
  if (config.auth.kind !== 'oauth' || !config.auth.clientId) return ORIGIN_CHANGED;
  const slot = { profileId: deps.profileId, owner: config.id, slot: OAUTH_SLOTS.clientSecret };
  return (await deps.storage.vault.has(slot))
    ? { ...ORIGIN_CHANGED, clientSecretOf: config.auth.clientId }
    : ORIGIN_CHANGED;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return undefined;
  }
}

async function writeSecrets(deps: ServerDeps, owner: string, slots: Readonly<Record<string, string>>): Promise<void> {
  for (const [slot, secret] of Object.entries(slots))
    await deps.storage.vault.put({ profileId: deps.profileId, owner, slot }, secret);
}

/** Adds a user server: checked, registered, stored with its secrets in the vault, then connected. */
export async function addServer(
  deps: ServerDeps,
  form: ServerForm,
  connect: (id: string) => Promise<void>,
  origin: Pick<ServerConfig, 'fromDirectory'> = {},
): Promise<FieldErrors | undefined> {
  const errors = checkServerForm(form);
  if (hasErrors(errors)) return errors;
  // An id a removed server had is never given again: its approvals and thread places must not pass to this one.
  const retired = Object.keys((await deps.storage.profiles.get(deps.profileId))?.retiredServerIds ?? {});
  // Stored ones too: another tab's new server is registered here only once the person pauses typing.
  const stored = (await deps.storage.profiles.listServers(deps.profileId)).items.map((s) => s.id);
  const taken = new Set([...deps.registry.list().map((s) => s.config.id), ...stored, ...retired]);
  const id = serverIdFromName(form.name, taken);
  const config = { ...configFromForm(form, id), ...origin };
  try {
    await deps.registry.register(config, 'user'); // Checks names against every server before anything is stored.
    try {
      await deps.storage.profiles.saveServer(deps.profileId, config, appServerNames(deps.registry));
      await writeSecrets(deps, id, pendingSecrets(form));
    } catch (error) {
      await deps.registry.unregister(id); // Also clears whatever secret was written.
      await deps.storage.profiles
        .removeServer(deps.profileId, id)
        .catch(
          logFailure(deps.logger ?? silentLogger, 'Removing a server that failed to add failed', { serverId: id }),
        );
      throw error;
    }
  } catch (error) {
    return error instanceof ValidationError ? fieldErrorsOf(error) : { form: describeError(error) };
  }
  await connect(id);
  return undefined;
}

/** How the profile's threads use a server: how many have it on, and how many of its tools those threads pin. */
export async function serverUse(
  deps: ServerDeps,
  serverId: string,
): Promise<{ readonly threads: number; readonly pinnedTools: number }> {
  const { items } = await deps.storage.threads.list(deps.profileId);
  const using = items.filter((thread) => thread.enabledServerIds.includes(serverId));
  const pinnedTools = using.reduce((sum, t) => sum + t.pinnedTools.filter((p) => p.serverId === serverId).length, 0);
  return { threads: using.length, pinnedTools };
}

/** The question Remove asks: what goes with the server, and which threads lose its tools. */
export function removeQuestion(name: string, use: { readonly threads: number; readonly pinnedTools: number }): string {
  const isOne = use.threads === 1;
  const threads = isOne ? '1 thread uses it' : `${use.threads.toLocaleString('en-US')} threads use it`;
  const pinned =
    use.pinnedTools === 0 ? '' : ` (${use.pinnedTools} pinned ${use.pinnedTools === 1 ? 'tool' : 'tools'})`;
  const outcome = isOne ? 'it keeps its messages but loses its tools' : 'they keep their messages but lose its tools';
  return (
    `Remove "${name}" with its stored credentials and tool settings?` +
    (use.threads > 0 ? ` ${threads}${pinned}: ${outcome}.` : '')
  );
}

/** The problems of an edit by field, as saving it would find them (blank secrets keep the stored ones); nothing saved. */
export async function checkServerEdit(deps: ServerDeps, serverId: string, form: ServerForm): Promise<FieldErrors> {
  const current = deps.registry.get(serverId);
  if (!current) return { form: 'This server no longer exists.' };
  return checkServerForm(form, await secretsKeptFor(deps, current.config, form.url));
}

/**
 * Saves an edited user server. Blank secret fields keep the stored secrets; secrets the new auth no longer
 * uses are deleted; the server reconnects with the new settings.
 */
export async function updateServer(
  deps: ServerDeps,
  serverId: string,
  form: ServerForm,
  connect: (id: string) => Promise<void>,
): Promise<FieldErrors | undefined> {
  const current = deps.registry.get(serverId);
  if (!current) return { form: 'This server no longer exists.' };
  if (current.scope !== 'user') return { form: 'This server is configured by the app and cannot be changed here.' };
  const old = current.config;
  const errors = checkServerForm(form, await secretsKeptFor(deps, old, form.url));
  if (hasErrors(errors)) return errors;
  const config = configFromForm(form, serverId, old);
  const secrets = pendingSecrets(form);
  try {
    const saved = await deps.storage.profiles.saveServer(deps.profileId, config, appServerNames(deps.registry));
    // Tokens issued for the old URL or client must not go to the new one.
    if (
      old.auth.kind === 'oauth' &&
      (saved.auth.kind !== 'oauth' || saved.url !== old.url || saved.auth.clientId !== old.auth.clientId)
    )
      await deps.registry.signOut(serverId);
    await writeSecrets(deps, serverId, secrets);
    // Before the registry takes the new config: a secret of the old origin must be gone if anything after fails.
    await deleteUnusedSecrets(deps, old, saved, secrets);
    await deps.registry.update(saved);
  } catch (error) {
    return error instanceof ValidationError ? fieldErrorsOf(error) : { form: describeError(error) };
  }
  // New secret values under the same config do not reconnect by themselves.
  if (Object.keys(secrets).length > 0) await deps.registry.disconnect(serverId);
  await connect(serverId);
  return undefined;
}

async function deleteUnusedSecrets(
  deps: ServerDeps,
  old: ServerConfig,
  saved: ServerConfig,
  written: Readonly<Record<string, string>>,
): Promise<void> {
  const kept = new Set(saved.auth.kind === 'headers' ? saved.auth.headerNames.map(headerSlot) : []);
  // A client secret belongs to its client ID at its origin: it never goes with another one or elsewhere.
  const isClientMoved =
    old.auth.kind === 'oauth' &&
    saved.auth.kind === 'oauth' &&
    (old.auth.clientId !== saved.auth.clientId || originOf(old.url) !== originOf(saved.url)) &&
    written[OAUTH_SLOTS.clientSecret] === undefined;
  const unused = [
    ...(old.auth.kind === 'bearer' && saved.auth.kind !== 'bearer' ? [BEARER_SLOT] : []),
    ...(old.auth.kind === 'headers' ? old.auth.headerNames.map(headerSlot).filter((slot) => !kept.has(slot)) : []),
    ...(old.auth.kind === 'oauth' && saved.auth.kind !== 'oauth' ? Object.values(OAUTH_SLOTS) : []),
    ...(isClientMoved ? [OAUTH_SLOTS.clientSecret] : []),
  ];
  for (const slot of unused) await deps.storage.vault.delete({ profileId: deps.profileId, owner: saved.id, slot });
}

/** Routes a user server through the relay once a test through it works; returns why not, or undefined. */
export async function routeThroughRelay(
  deps: ServerDeps,
  serverId: string,
  connect: (id: string) => Promise<void>,
): Promise<string | undefined> {
  const current = deps.registry.get(serverId);
  if (!current) return 'This server no longer exists.';
  if (current.scope !== 'user')
    return 'This server is configured by the app; its deployer can route it through the relay.';
  const routed = { ...current.config, viaRelay: true };
  try {
    const result = await deps.registry.testConnection(routed);
    if (!result.ok && result.status !== 'needs-auth')
      return describeConnectionError(result.error, routed.auth, { isOwn: true, hasRelay: true });
    const saved = await deps.storage.profiles.saveServer(deps.profileId, routed, appServerNames(deps.registry));
    await deps.registry.update(saved);
  } catch (error) {
    return describeError(error);
  }
  await connect(serverId);
  return undefined;
}

/** The name a server is tried under while its form has none (a test stores nothing, so no name is kept). */
const UNNAMED_TEST = 'Server being tested';

/** Tries the form's settings without saving anything: connects once, lists the tools, closes. */
export async function testServer(deps: ServerDeps, form: ServerForm, serverId?: string): Promise<TestOutcome> {
  const current = serverId === undefined ? undefined : deps.registry.get(serverId);
  const stored = current ? await secretsKeptFor(deps, current.config, form.url) : NOTHING_STORED;
  // A test needs only where to connect: the name is needed to add the server, not to try its URL.
  const { name: nameProblem, ...errors } = checkServerForm(form, stored);
  if (hasErrors(errors)) return { ok: false, errors };
  const tried = nameProblem ? { ...form, name: UNNAMED_TEST } : form;
  // A new server gets an id no registered server has, so no stored secret is read for it.
  const id = current?.config.id ?? serverIdFromName(tried.name, new Set(deps.registry.list().map((s) => s.config.id)));
  const config = configFromForm(tried, id, current?.config);
  try {
    const result = await deps.registry.testConnection(config, pendingSecrets(form));
    if (result.ok)
      return {
        ok: true,
        text: `Connection works: ${result.toolCount} ${result.toolCount === 1 ? 'tool' : 'tools'} (${result.transport === 'sse' ? 'HTTP+SSE' : 'streamable HTTP'}). Nothing was saved.`,
      };
    // Signing in needs the saved server (the tokens are stored under it), so a test can only get this far.
    if (result.status === 'needs-auth' && config.auth.kind === 'oauth')
      return {
        ok: false,
        needsSignIn: true,
        text: 'The server answers and asks for a sign-in: save the server, then use "Sign in".',
      };
    const offersRelay = result.error?.kind === 'cors' && !form.viaRelay && deps.registry.relayUrl() !== undefined;
    return {
      ok: false,
      text: describeConnectionError(result.error, config.auth, {
        isOwn: true,
        hasRelay: deps.registry.relayUrl() !== undefined,
      }),
      ...(offersRelay ? { offersRelay } : {}),
    };
  } catch (error) {
    return error instanceof ValidationError
      ? { ok: false, errors: fieldErrorsOf(error) }
      : { ok: false, text: describeError(error) };
  }
}

/** Names of the app-level servers: a user server may not take one. */
function appServerNames(registry: Registry): string[] {
  return registry
    .list()
    .filter((s) => s.scope === 'app')
    .map((s) => s.config.name);
}
