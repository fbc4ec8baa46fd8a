import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { postCallbackToOpener, readCallback } from '../platform/auth-window';
import { createBrowserEnv } from '../platform/environment';
import { createAppStore, startApp } from '../stores/app-store';
import { App } from './App';
import { createServices } from './services';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const callback = readCallback(window.location, import.meta.env.BASE_URL);

if (callback && postCallbackToOpener(callback)) {
  // A sign-in popup: the page that opened it finishes the sign-in.
  root.textContent = 'Signed in. This window closes by itself.';
  window.close();
} else {
  const store = createAppStore();
  const env = createBrowserEnv();
  void startApp(store, (onLost) => createServices(env, onLost)).then(async () => {
    const actions = store.getState().serverActions;
    if (!callback || !actions) return;
    // The sign-in came back to this page (popups were blocked): finish it here, then leave the callback URL.
    window.history.replaceState(null, '', import.meta.env.BASE_URL);
    const problem = await actions.finishSignIn(callback);
    if (problem) store.setState({ serverProblems: [...store.getState().serverProblems, problem] });
  });
  createRoot(root).render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  );
}
