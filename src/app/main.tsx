import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { handToSignInPage, readCallback } from '../platform/auth-window';
import { SERVICE_WORKER_FILE } from '../domain/app-shell';
import { createBrowserEnv } from '../platform/environment';
import { registerServiceWorker } from '../platform/service-worker';
import { createAppStore } from '../stores/app-store';
import { preloadThreadPane } from '../ui/features/chat/lazy-thread-pane';
import { preloadThreadsSidebar } from '../ui/features/threads/lazy-threads-sidebar';
import { App } from './App';
import './styles.css';

// zod's object schemas probe `new Function('')` once to choose a compiled fast path. Under the page's CSP (no eval)
// the probe is refused and reported as a CSP violation, though zod catches it; jitless parsing skips the probe. zod
// reads this global when it loads, after this line: the first screen imports no zod (first-screen.test.ts).
(globalThis as { __zod_globalConfig?: Record<string, unknown> }).__zod_globalConfig = { jitless: true };

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const callback = readCallback(window.location, import.meta.env.BASE_URL);

if (window.top !== window.self) {
  // Framed by another page, on a host that sends no frame-ancestors header: run nothing that page could click through.
  showFramedNotice(root);
} else if (callback) {
  // A sign-in popup's callback: the page that opened it finishes the sign-in; without one, this page does.
  root.textContent = 'Finishing the sign-in…';
  void handToSignInPage(callback).then((isTaken) => {
    if (!isTaken) return startApp(root);
    root.textContent = 'Signed in. This window closes by itself.';
    window.close();
  });
} else {
  startApp(root);
}

/** The app in this tab: start-up (its own chunk), the service worker, and the first frame. */
function startApp(root: HTMLElement): void {
  const store = createAppStore();
  const env = createBrowserEnv();
  // Start-up (storage, MCP, the agent) is its own chunk, fetched while the first frame shows the message box; the
  // thread's messages and cards, and the thread list (two more chunks), are fetched beside it, to show as soon as it
  // has opened the thread.
  void import('./start').then(
    (module) => {
      preloadThreadPane().catch(() => undefined); // A failed fetch is shown where the thread would be.
      preloadThreadsSidebar().catch(() => undefined); // Likewise where the thread list would be.
      return module.start(store, env, callback);
    },
    (error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      store.setState({
        phase: 'failed',
        fatal: `The app could not be loaded (${reason}). Reload the page to try again.`,
      });
    },
  );
  // Builds only: the dev server (the one with hot reload) has no sw.js, and reloads itself on every change.
  const updates = !import.meta.hot
    ? registerServiceWorker({
        container: 'serviceWorker' in navigator ? navigator.serviceWorker : undefined,
        scriptUrl: `${import.meta.env.BASE_URL}${SERVICE_WORKER_FILE}`,
        scope: import.meta.env.BASE_URL,
        reload: () => window.location.reload(),
        logger: env.logger,
      })
    : undefined;
  createRoot(root).render(
    <StrictMode>
      <App store={store} updates={updates} />
    </StrictMode>,
  );
}

/** In place of the app inside a frame: why it does not run there, and a link that opens it in a tab of its own. */
function showFramedNotice(container: HTMLElement): void {
  const notice = document.createElement('p');
  notice.className = 'framed-notice';
  notice.setAttribute('role', 'alert');
  notice.append('MCP Agent does not run inside another page, so that page cannot make you click in it. ');
  const link = document.createElement('a');
  link.href = window.location.href;
  link.target = '_blank';
  link.rel = 'noopener noreferrer';
  link.textContent = 'Open MCP Agent in its own tab';
  notice.append(link);
  container.replaceChildren(notice);
}
