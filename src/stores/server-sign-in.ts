// Signing in to an OAuth server from the Servers panel, and the line under a server that says how it went.
import { AppError, describeError } from '../domain/errors';
import type { ServerState } from '../domain/server-status';
import type { Registry } from '../mcp/registry';
import { AuthWindowClosedError, type AuthWindow, type CallbackParams } from '../platform/auth-window';
import type { ServersState, ServersStore } from './servers-store';

/**
 * Signs in to an OAuth server. `authWindow` is the popup the click opened; without one (blocked) the
 * page itself goes to the authorization server and the callback route finishes the sign-in.
 */
export async function signIn(
  store: ServersStore,
  registry: Registry,
  serverId: string,
  authWindow: AuthWindow | undefined,
  redirectPage: (url: URL) => void,
): Promise<void> {
  try {
    if (!authWindow) {
      await registry.signIn(serverId, redirectPage);
      return;
    }
    const started = await registry.signIn(serverId, (url) => {
      setServerNotice(store, serverId, { tone: 'info', text: 'Waiting for the sign-in window…' });
      authWindow.navigate(url);
    });
    if (started !== 'redirected') {
      authWindow.close();
      setServerNotice(store, serverId, signInNotice(started));
      return;
    }
    const params = await authWindow.result;
    const failure = await finishSignIn(store, registry, params);
    if (failure) setServerNotice(store, serverId, { tone: 'error', text: failure });
  } catch (error) {
    authWindow?.close();
    setServerNotice(store, serverId, {
      tone: 'error',
      text:
        error instanceof AuthWindowClosedError || error instanceof AppError
          ? error.message
          : `Sign-in failed: ${String(error)}`,
    });
  }
}

/** Completes a sign-in from the callback's parameters (popup message or the callback route). */
export async function finishSignIn(
  store: ServersStore,
  registry: Registry,
  params: CallbackParams,
): Promise<string | undefined> {
  try {
    const { serverId, state } = await registry.completeSignIn(params);
    setServerNotice(store, serverId, signInNotice(state));
    return undefined;
  } catch (error) {
    return describeError(error);
  }
}

/** Sets (or clears) the line the Servers panel shows under one server. */
export function setServerNotice(
  store: ServersStore,
  serverId: string,
  notice: ServersState['notices'][string] | undefined,
): void {
  const notices = { ...store.getState().notices };
  if (notice) notices[serverId] = notice;
  else delete notices[serverId];
  store.setState({ notices });
}

/** What a sign-in that ended in `state` says under its server. */
function signInNotice(state: ServerState): ServersState['notices'][string] {
  return state.status === 'connected'
    ? { tone: 'info', text: 'Signed in.' }
    : { tone: 'error', text: state.lastError?.message ?? state.status };
}
