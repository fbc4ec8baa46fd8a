import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { postCallbackToOpener, readCallback } from '../platform/auth-window';
import { createBrowserEnv } from '../platform/environment';
import { createAppStore } from '../stores/app-store';
import { App } from './App';
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
  // Start-up (storage, MCP, the agent) is its own chunk, fetched while the first frame shows the message box.
  void import('./start').then(
    (module) => module.start(store, env, callback),
    (error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      store.setState({
        phase: 'failed',
        fatal: `The app could not be loaded (${reason}). Reload the page to try again.`,
      });
    },
  );
  createRoot(root).render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  );
}
