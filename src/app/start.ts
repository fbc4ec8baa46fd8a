import type { CallbackParams } from '../platform/auth-window';
import type { PlatformEnv } from '../platform/environment';
import type { AppStore } from '../stores/app-store';
import { startApp } from '../stores/start-app';
import { createServices } from './services';
import { syncThreadUrl } from './thread-url';

/**
 * Start-up behind the first frame: storage, registry, chat; then a sign-in that came back to this page; then the
 * open thread kept in the address (Back, Forward, a reload, a new tab).
 */
export async function start(store: AppStore, env: PlatformEnv, callback: CallbackParams | undefined): Promise<void> {
  await startApp(store, (onLost) => createServices(env, onLost));
  await finishSignIn(store, callback);
  const { chat, chatActions } = store.getState();
  if (chat && chatActions) syncThreadUrl(chat, chatActions, window);
}

/** The sign-in came back to this page (popups were blocked): finish it here, then leave the callback URL. */
async function finishSignIn(store: AppStore, callback: CallbackParams | undefined): Promise<void> {
  const actions = store.getState().serverActions;
  if (!callback || !actions) return;
  window.history.replaceState(null, '', import.meta.env.BASE_URL);
  const problem = await actions.finishSignIn(callback);
  if (problem) store.setState({ serverProblems: [...store.getState().serverProblems, problem] });
}
