import type { AppUpdates } from '../domain/app-shell';
import { logFailure, type Logger } from '../domain/logger';

export interface ServiceWorkerOptions {
  /** navigator.serviceWorker; undefined where there is none (an insecure origin, a browser without it). */
  readonly container: ServiceWorkerContainer | undefined;
  /** The worker script (the build's sw.js) and its scope, the app's base path. */
  readonly scriptUrl: string;
  readonly scope: string;
  readonly reload: () => void;
  readonly logger: Logger;
}

/**
 * Registers the app's service worker, which keeps the built app for offline use, and reports a new version once
 * installed: it waits (the worker does not take over by itself) until the person chooses to reload into it, so an
 * answer being written is never cut off. Only the tab that asked reloads; other tabs keep running until theirs do.
 */
export function registerServiceWorker(options: ServiceWorkerOptions): AppUpdates {
  const listeners = new Set<() => void>();
  let waiting: ServiceWorker | undefined;
  let isApplying = false;
  const offer = (worker: ServiceWorker) => {
    waiting = worker;
    for (const listener of listeners) listener();
  };
  const { container } = options;
  const register = () => {
    if (!container) return;
    container.addEventListener('controllerchange', () => {
      if (isApplying) options.reload();
    });
    container
      .register(options.scriptUrl, { scope: options.scope })
      .then((registration) => {
        // Only an update waits behind a worker that already controls this page; a first install is no news.
        if (registration.waiting && container.controller) offer(registration.waiting);
        registration.addEventListener('updatefound', () => {
          const installing = registration.installing;
          installing?.addEventListener('statechange', () => {
            if (installing.state === 'installed' && container.controller) offer(installing);
          });
        });
      })
      .catch(logFailure(options.logger, 'The offline copy of the app could not be set up'));
  };
  // After the page has loaded: the worker fetches the whole app, which must not slow the first screen down.
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    isReady: () => waiting !== undefined,
    apply() {
      if (!waiting) return;
      isApplying = true;
      waiting.postMessage('activate-update');
    },
  };
}
