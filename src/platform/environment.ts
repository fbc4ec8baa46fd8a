import { silentLogger, type Logger } from '../domain/logger';
import { createConsoleLogger, isDebugRequested } from './console-logger';
import { createLocks, type Locks } from './locks';
import type { ThemeMirrorStorage } from './theme-mirror';

/** The browser capabilities the app uses, gathered once at the composition root; nothing else reads globals. */
export interface PlatformEnv {
  readonly indexedDB: IDBFactory;
  readonly crypto: Crypto;
  /** Creates a cross-tab channel, or undefined where BroadcastChannel does not exist. */
  readonly openChannel: (name: string) => BroadcastChannel | undefined;
  readonly fetch: typeof fetch;
  /** This page's origin, named in CORS advice for MCP servers. */
  readonly origin: string;
  /** Locks shared by the tabs of this origin (Web Locks). */
  readonly locks: Locks;
  readonly now: () => number;
  readonly newId: () => string;
  /** This origin's localStorage, for the theme's copy only (never secrets); may throw where storage is blocked. */
  readonly localStorage: () => ThemeMirrorStorage | undefined;
  /** Where failures the app goes on past are reported: silent, or the console with `?debug=1` in the page's URL. */
  readonly logger: Logger;
}

/** The real environment of a browser page (or of Node 20+, which has the same globals but IndexedDB). */
export function createBrowserEnv(overrides: Partial<PlatformEnv> = {}): PlatformEnv {
  return {
    indexedDB: globalThis.indexedDB,
    crypto: globalThis.crypto,
    openChannel: (name) => (typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(name)),
    fetch: (input, init) => globalThis.fetch(input, init),
    origin: globalThis.location?.origin ?? 'http://localhost',
    locks: createLocks(globalThis.navigator?.locks),
    now: () => Date.now(),
    newId: () => globalThis.crypto.randomUUID(),
    localStorage: () => globalThis.localStorage,
    logger: isDebugRequested(globalThis.location?.search ?? '')
      ? createConsoleLogger(globalThis.console)
      : silentLogger,
    ...overrides,
  };
}
