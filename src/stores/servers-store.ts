import { createStore, type StoreApi } from 'zustand/vanilla';
import { AppError, describeError } from '../domain/errors';
import { BEARER_SLOT, type AuthConfig, type ServerConfigInput } from '../domain/server-config';
import type { ServerStatus } from '../domain/server-status';
import { OAUTH_SLOTS } from '../mcp/oauth-provider';
import type { Registry, ServerScope } from '../mcp/registry';
import { AuthWindowClosedError, type AuthWindow, type CallbackParams } from '../platform/auth-window';
import type { Storage } from '../storage/storage';

/** One server as the servers panel shows it. */
export interface ServerView {
  readonly id: string;
  readonly name: string;
  readonly url: string;
  readonly scope: ServerScope;
  readonly authKind: AuthConfig['kind'];
  readonly status: ServerStatus;
  readonly error?: string;
  readonly toolCount: number;
  readonly isCatalogStale: boolean;
}

export interface ServersState {
  readonly servers: readonly ServerView[];
  /** The last action's message per server ("Signed in", why a sign-in failed). */
  readonly notices: Readonly<Record<string, { readonly tone: 'error' | 'info'; readonly text: string }>>;
}

export type ServersStore = StoreApi<ServersState> & { readonly dispose: () => void };

/** A store mirroring the registry: refreshed on every registry event. */
export function createServersStore(registry: Registry): ServersStore {
  const snapshot = (): ServerView[] =>
    registry.list().map(({ config, scope, state, catalog, isCatalogStale }) => ({
      id: config.id,
      name: config.name,
      url: config.url,
      scope,
      authKind: config.auth.kind,
      status: state.status,
      ...(state.lastError ? { error: state.lastError.message } : {}),
      toolCount: catalog?.tools.length ?? 0,
      isCatalogStale,
    }));
  const store = createStore<ServersState>(() => ({ servers: snapshot(), notices: {} }));
  const unsubscribe = registry.subscribe(() => store.setState({ servers: snapshot() }));
  return Object.assign(store, { dispose: unsubscribe });
}

export interface NewServerInput {
  readonly name: string;
  readonly url: string;
  readonly auth: AuthConfig['kind'];
  /** The bearer token, when auth is bearer; goes to the vault only. */
  readonly token?: string;
  /** A pre-registered OAuth client (optional); the secret goes to the vault only. */
  readonly clientId?: string;
  readonly clientSecret?: string;
}

/** A readable, stable id from a server name ("Weather (EU)" → "weather-eu"), unique among `taken`. */
export function serverIdFromName(name: string, taken: ReadonlySet<string>): string {
  const base = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'server';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

/** Adds a user server: validated, stored, secret to the vault, registered, then connected. Returns an error message or undefined. */
export async function addServer(store: ServersStore, deps: { registry: Registry; storage: Storage; profileId: string }, input: NewServerInput): Promise<string | undefined> {
  const id = serverIdFromName(input.name, new Set(deps.registry.list().map((s) => s.config.id)));
  const auth: AuthConfig = input.auth === 'oauth' && input.clientId?.trim() ? { kind: 'oauth', clientId: input.clientId.trim() } : ({ kind: input.auth } as AuthConfig);
  const config: ServerConfigInput = { id, name: input.name, url: input.url, auth };
  const reserved = deps.registry.list().filter((s) => s.scope === 'app').map((s) => s.config.name);
  try {
    await deps.registry.register(config, 'user'); // Validates and checks names before anything is stored.
    try {
      await deps.storage.profiles.saveServer(deps.profileId, config, reserved);
      if (input.auth === 'bearer' && input.token) await deps.storage.vault.put({ profileId: deps.profileId, owner: id, slot: BEARER_SLOT }, input.token);
      if (input.auth === 'oauth' && input.clientSecret) await deps.storage.vault.put({ profileId: deps.profileId, owner: id, slot: OAUTH_SLOTS.clientSecret }, input.clientSecret);
    } catch (error) {
      await deps.registry.unregister(id);
      throw error;
    }
  } catch (error) {
    return describeError(error);
  }
  await connectServer(store, deps.registry, id);
  return undefined;
}

export async function connectServer(store: ServersStore, registry: Registry, serverId: string): Promise<void> {
  const state = await registry.connect(serverId);
  setNotice(store, serverId, state.status === 'connected' ? undefined : { tone: 'error', text: state.lastError?.message ?? `Status: ${state.status}` });
}

/**
 * Signs in to an OAuth server. `authWindow` is the popup the click opened; without one (blocked) the
 * page itself goes to the authorization server and the callback route finishes the sign-in.
 */
export async function signIn(store: ServersStore, registry: Registry, serverId: string, authWindow: AuthWindow | undefined, redirectPage: (url: URL) => void): Promise<void> {
  try {
    if (!authWindow) {
      await registry.signIn(serverId, redirectPage);
      return;
    }
    const started = await registry.signIn(serverId, (url) => authWindow.navigate(url));
    if (started !== 'redirected') {
      authWindow.close();
      setNotice(store, serverId, started.status === 'connected' ? { tone: 'info', text: 'Signed in.' } : { tone: 'error', text: started.lastError?.message ?? started.status });
      return;
    }
    const params = await authWindow.result;
    await finishSignIn(store, registry, params);
  } catch (error) {
    authWindow?.close();
    setNotice(store, serverId, { tone: 'error', text: error instanceof AuthWindowClosedError || error instanceof AppError ? error.message : `Sign-in failed: ${String(error)}` });
  }
}

/** Completes a sign-in from the callback's parameters (popup message or the callback route). */
export async function finishSignIn(store: ServersStore, registry: Registry, params: CallbackParams): Promise<string | undefined> {
  try {
    const { serverId, state } = await registry.completeSignIn(params);
    setNotice(store, serverId, state.status === 'connected' ? { tone: 'info', text: 'Signed in.' } : { tone: 'error', text: state.lastError?.message ?? state.status });
    return undefined;
  } catch (error) {
    return describeError(error);
  }
}

function setNotice(store: ServersStore, serverId: string, notice: ServersState['notices'][string] | undefined): void {
  const notices = { ...store.getState().notices };
  if (notice) notices[serverId] = notice;
  else delete notices[serverId];
  store.setState({ notices });
}

/** The servers panel's actions, bound to one profile's registry and storage. */
export interface ServerActions {
  add(input: NewServerInput): Promise<string | undefined>;
  connect(serverId: string): Promise<void>;
  /** Call from the click handler: opens the popup synchronously, before anything is awaited. */
  signIn(serverId: string, openWindow: () => AuthWindow | undefined, redirectPage: (url: URL) => void): Promise<void>;
  finishSignIn(params: CallbackParams): Promise<string | undefined>;
  /** Forgets the server's OAuth tokens and client registration. */
  signOut(serverId: string): Promise<void>;
  /** Removes a user server with its catalog and credentials. */
  remove(serverId: string): Promise<void>;
}

export function bindServerActions(store: ServersStore, deps: { registry: Registry; storage: Storage; profileId: string }): ServerActions {
  return {
    add: (input) => addServer(store, deps, input),
    connect: (serverId) => connectServer(store, deps.registry, serverId),
    signIn: (serverId, openWindow, redirectPage) => signIn(store, deps.registry, serverId, openWindow(), redirectPage),
    finishSignIn: (params) => finishSignIn(store, deps.registry, params),
    async signOut(serverId) {
      await deps.registry.signOut(serverId);
      setNotice(store, serverId, { tone: 'info', text: 'Signed out.' });
    },
    async remove(serverId) {
      try {
        await deps.storage.profiles.removeServer(deps.profileId, serverId);
        await deps.registry.unregister(serverId);
      } catch (error) {
        setNotice(store, serverId, { tone: 'error', text: describeError(error) });
      }
    },
  };
}
