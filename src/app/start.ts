import type { CallbackParams } from '../platform/auth-window';
import type { PlatformEnv } from '../platform/environment';
import type { AppStore } from '../stores/app-store';
import { startApp } from '../stores/start-app';
import { createServices } from './services';

/** Start-up behind the first frame: storage, registry, chat; then a sign-in that came back to this page. */
export async function start(store: AppStore, env: PlatformEnv, callback: CallbackParams | undefined): Promise<void> {
  await startApp(store, (onLost) => createServices(env, onLost));
  const actions = store.getState().serverActions;
  if (!callback || !actions) return;
  // The sign-in came back to this page (popups were blocked): finish it here, then leave the callback URL.
  window.history.replaceState(null, '', import.meta.env.BASE_URL);
  const problem = await actions.finishSignIn(callback);
  if (problem) store.setState({ serverProblems: [...store.getState().serverProblems, problem] });
}
