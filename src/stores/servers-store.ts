import { reportedElsewhere } from '../domain/logger';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { describeError } from '../domain/errors';
import { putFirstServerOn } from './first-server';
import { HELD_REFRESH_MS, type FloodGuard } from './flood-guard';
import { nextFrame, type FrameScheduler } from './live-messages';
import type { Registry } from '../mcp/registry';
import type { AuthWindow, CallbackParams } from '../platform/auth-window';
import {
  addServer,
  checkServerEdit,
  serverUse,
  routeThroughRelay,
  testServer,
  updateServer,
  type ServerDeps,
  type TestOutcome,
} from './server-edit';
import type { FieldErrors, ServerForm } from './server-form';
import { describeConnectionError } from './server-messages';
import { finishSignIn, setServerNotice, signIn } from './server-sign-in';
import { changeTool, memoizedToolViews, type ToolChange } from './server-tools';
import { inListOrder, serverViewOf, type ServerView } from './server-view';

export { removeQuestion, serverIdFromName, type TestOutcome } from './server-edit';
export { EMPTY_SERVER_FORM, formFromConfig, type FieldErrors, type HeaderRow, type ServerForm } from './server-form';
export type { ToolChange, ToolView } from './server-tools';
export type { ServerView } from './server-view';

export interface ServersState {
  readonly servers: readonly ServerView[];
  /** The last action's message per server ("Signed in", why a sign-in failed). */
  readonly notices: Readonly<Record<string, { readonly tone: 'error' | 'info'; readonly text: string }>>;
  /** The servers a new thread starts with enabled (the profile's default set). */
  readonly defaultIds: readonly string[];
}

export type ServersStore = StoreApi<ServersState> & { readonly dispose: () => void };

/** A guard against servers that flood, and the frame the store refreshes in. */
export interface ServersStoreOptions {
  /** Counts log messages per server; while a server is held back, its log shows its latest once a second. */
  readonly guard?: FloodGuard;
  readonly schedule?: FrameScheduler;
}

/**
 * A store mirroring the registry: refreshed on every registry event, except log messages and the app's notes, which
 * refresh it at most once a frame (a server may send thousands a second; each refresh rebuilds every server's view).
 */
export function createServersStore(
  registry: Registry,
  { guard, schedule = nextFrame }: ServersStoreOptions = {},
): ServersStore {
  const toolsOf = memoizedToolViews();
  /** Servers that declared prompts when they last connected: an idle disconnect does not take the `/` hint away. */
  const promptServers = new Set<string>();
  const snapshot = (): ServerView[] =>
    [...registry.list()].sort(inListOrder).map((server) => serverViewOf(server, registry, toolsOf, promptServers));
  const store = createStore<ServersState>(() => ({ servers: snapshot(), notices: {}, defaultIds: [] }));
  const refresh = () => store.setState({ servers: snapshot() });
  let isScheduled = false;
  let isDisposed = false;
  const refreshSoon = () => {
    if (isScheduled) return;
    isScheduled = true;
    schedule(() => {
      isScheduled = false;
      if (!isDisposed) refresh();
    });
  };
  let heldTimer: ReturnType<typeof setTimeout> | undefined;
  const unsubscribe = registry.subscribe((event) => {
    // The app's notes come at a server's pace (each request it makes outside a call is declined with one): once a frame.
    if (event.type === 'note') return refreshSoon();
    if (event.type !== 'log') return refresh();
    if (!guard || guard.admit(event.serverId)) return refreshSoon();
    heldTimer ??= setTimeout(() => {
      heldTimer = undefined;
      refreshSoon();
    }, HELD_REFRESH_MS);
  });
  return Object.assign(store, {
    dispose: () => {
      isDisposed = true;
      clearTimeout(heldTimer);
      unsubscribe();
    },
  });
}

/**
 * Connects now (or, `isCheckAgain`, reads a connected server's tools again); a failure stays as the server's status
 * and error.
 */
export async function connectServer(
  store: ServersStore,
  registry: Registry,
  serverId: string,
  isCheckAgain = false,
): Promise<void> {
  const state = await (isCheckAgain ? registry.checkAgain(serverId) : registry.connect(serverId));
  const server = registry.get(serverId);
  const context = { isOwn: server?.scope === 'user', hasRelay: registry.relayUrl() !== undefined };
  const text =
    state.lastError && server
      ? describeConnectionError(state.lastError, server.config.auth, context)
      : `Status: ${state.status}`;
  setServerNotice(store, serverId, state.status === 'connected' ? undefined : { tone: 'error', text });
}

/** The servers manager's actions, bound to one profile's registry and storage. */
export interface ServerActions {
  /** Adds a user server and connects it; returns the problems by field, or undefined when it was added. */
  add(form: ServerForm): Promise<FieldErrors | undefined>;
  /** Saves an edited user server (blank secrets keep the stored ones) and reconnects it. */
  update(serverId: string, form: ServerForm): Promise<FieldErrors | undefined>;
  /** The problems of an edited user server's form by field (empty: it can be saved); nothing is saved. */
  check(serverId: string, form: ServerForm): Promise<FieldErrors>;
  /** Tries the form's settings without saving (for an edit, `serverId` lends its stored secrets). */
  test(form: ServerForm, serverId?: string): Promise<TestOutcome>;
  /**
   * Switches a server's tool on or off, or sets its description: a user server's in its config, an app server's
   * for this profile only. A failure becomes the server's notice and is also returned (undefined when stored), so
   * a form can keep what was typed.
   */
  changeTool(serverId: string, toolName: string, change: ToolChange): Promise<string | undefined>;
  connect(serverId: string): Promise<void>;
  /** "Check again": a connected server's tools, prompts and status are read again; any other server connects. */
  checkAgain(serverId: string): Promise<void>;
  /**
   * "Connect through relay": tries the server through the relay first; only when that works is it saved as routed
   * through the relay and connected. A failure (relay down, not a relay, refused) becomes its notice, server unchanged.
   */
  connectThroughRelay(serverId: string): Promise<void>;
  /** Call from the click handler: opens the popup synchronously, before anything is awaited. */
  signIn(serverId: string, openWindow: () => AuthWindow | undefined, redirectPage: (url: URL) => void): Promise<void>;
  finishSignIn(params: CallbackParams): Promise<string | undefined>;
  /** Forgets the server's OAuth tokens and client registration. */
  signOut(serverId: string): Promise<void>;
  /** Removes a user server with its catalog and credentials. */
  remove(serverId: string): Promise<void>;
  /** How many of the profile's threads have the server on, and how many of its tools they pin (what Remove takes). */
  usedBy(serverId: string): Promise<{ readonly threads: number; readonly pinnedTools: number }>;
  /** Puts the server in or out of the set new threads start with; a failure becomes the server's notice. */
  setDefault(serverId: string, isOn: boolean): Promise<void>;
}

export function bindServerActions(
  store: ServersStore,
  deps: ServerDeps & {
    /** Switches the server on in the open thread when that thread has none on; says whether it did. */
    readonly enableInOpenThread?: (serverId: string) => Promise<boolean>;
  },
): ServerActions {
  const connect = (serverId: string) => connectServer(store, deps.registry, serverId);
  // Config writes one after another, so quick clicks never overwrite each other's change.
  let writes: Promise<unknown> = Promise.resolve();
  const serially = <T>(write: () => Promise<T>): Promise<T> => {
    const next = writes.then(write, write);
    writes = next.catch(reportedElsewhere); // The caller gets `next` itself.
    return next;
  };
  void deps.storage.profiles.get(deps.profileId).then(
    (profile) => store.setState({ defaultIds: profile?.defaultServerIds ?? [] }),
    () => undefined, // The set stays empty; the chat store reports storage problems.
  );
  return {
    add: (form) =>
      serially(() =>
        addServer(deps, form, async (id) => {
          // The first server a person adds is on in new threads (and in an open thread with none on).
          const first = await putFirstServerOn(deps, id, deps.enableInOpenThread);
          if (first?.defaultIds) store.setState({ defaultIds: first.defaultIds });
          await connect(id);
          // Said once connected (connecting clears the notice); a connection problem's notice stays as it is.
          if (first?.notice && !store.getState().notices[id]) setServerNotice(store, id, first.notice);
        }),
      ),
    update: (serverId, form) => serially(() => updateServer(deps, serverId, form, connect)),
    check: (serverId, form) => checkServerEdit(deps, serverId, form),
    test: (form, serverId) => testServer(deps, form, serverId),
    changeTool: (serverId, toolName, change) =>
      serially(async () => {
        const problem = await changeTool(deps, serverId, toolName, change);
        setServerNotice(store, serverId, problem ? { tone: 'error', text: problem } : undefined);
        return problem;
      }),
    connect,
    checkAgain: (serverId) => connectServer(store, deps.registry, serverId, true),
    connectThroughRelay: (serverId) =>
      serially(async () => {
        const problem = await routeThroughRelay(deps, serverId, connect);
        setServerNotice(
          store,
          serverId,
          problem ? { tone: 'error', text: problem } : { tone: 'info', text: 'Connected through the relay.' },
        );
      }),
    signIn: (serverId, openWindow, redirectPage) => signIn(store, deps.registry, serverId, openWindow(), redirectPage),
    finishSignIn: (params) => finishSignIn(store, deps.registry, params),
    async signOut(serverId) {
      await deps.registry.signOut(serverId);
      setServerNotice(store, serverId, { tone: 'info', text: 'Signed out.' });
    },
    usedBy: (serverId) => serverUse(deps, serverId),
    remove: (serverId) =>
      serially(async () => {
        try {
          await deps.storage.profiles.removeServer(deps.profileId, serverId);
          await deps.registry.unregister(serverId);
          store.setState({ defaultIds: store.getState().defaultIds.filter((id) => id !== serverId) });
        } catch (error) {
          setServerNotice(store, serverId, { tone: 'error', text: describeError(error) });
        }
      }),
    setDefault: (serverId, isOn) => {
      const before = store.getState().defaultIds;
      // The switch moves at once; a failed write puts it back with the reason.
      store.setState({
        defaultIds: isOn ? [...new Set([...before, serverId])] : before.filter((id) => id !== serverId),
      });
      return serially(async () => {
        try {
          const saved = await deps.storage.profiles.update(deps.profileId, (p) => ({
            ...p,
            defaultServerIds: isOn
              ? [...new Set([...p.defaultServerIds, serverId])]
              : p.defaultServerIds.filter((id) => id !== serverId),
          }));
          store.setState({ defaultIds: saved.defaultServerIds });
        } catch (error) {
          store.setState({ defaultIds: before });
          setServerNotice(store, serverId, { tone: 'error', text: describeError(error) });
        }
      });
    },
  };
}
