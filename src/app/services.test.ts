import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLocalLocks } from '../platform/locks';
import { createBrowserEnv } from '../platform/environment';
import { createAppStore } from '../stores/app-store';
import { startApp } from '../stores/start-app';
import { createServices } from './services';

afterEach(() => void vi.unstubAllGlobals());

describe('the composed app', () => {
  it("listens for the person's keys once: the message search and start-up's background work share one scheduler", async () => {
    // The page's listeners, as the browser would hold them (Node's global object takes none).
    const listeners: { type: string; listener: () => void }[] = [];
    vi.stubGlobal('addEventListener', (type: string, listener: () => void) => void listeners.push({ type, listener }));
    const env = createBrowserEnv({
      indexedDB: new IDBFactory(),
      openChannel: () => undefined,
      fetch: () => Promise.resolve(new Response('', { status: 404 })),
      locks: createLocalLocks(),
      localStorage: () => undefined,
    });
    const store = createAppStore();
    const services = await startApp(store, (onLost) => createServices(env, onLost));
    expect(store.getState().phase).toBe('ready');
    expect(listeners.filter((l) => l.type === 'keydown')).toHaveLength(1);
    expect(listeners.filter((l) => l.type === 'pointerdown')).toHaveLength(1);
    await store.getState().registry?.close();
    services?.storage.changes.close();
  });
});
