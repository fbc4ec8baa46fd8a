import { openDB } from 'idb';
import { StorageUnavailableError } from '../domain/errors';
import { CURRENT_DB_VERSION, MIGRATIONS } from './database-migrations';
import type { AppDatabase, AppSchema, UpgradeTransaction } from './database-schema';

export const DEFAULT_DB_NAME = 'mcp-agent';

export interface OpenDatabaseOptions {
  readonly name?: string;
  /** Only tests open an older version, to build a database as an earlier release left it. */
  readonly version?: number;
  /** Another tab opened a newer version; this connection was closed so as not to block it. */
  readonly onVersionChange?: (error: StorageUnavailableError) => void;
  /** Our upgrade waits for an older tab to close its connection. */
  readonly onBlocked?: () => void;
}

async function runMigrations(db: AppDatabase, tx: UpgradeTransaction, from: number, to: number): Promise<void> {
  for (let step = from; step < to; step++) await MIGRATIONS[step]?.(db, tx);
}

/** Opens the app's database, running every migration step newer than what the browser holds. */
export async function openAppDatabase(indexedDB: IDBFactory, options: OpenDatabaseOptions = {}): Promise<AppDatabase> {
  const version = options.version ?? CURRENT_DB_VERSION;
  let db: AppDatabase | undefined;
  try {
    db = await openDB<AppSchema>(options.name ?? DEFAULT_DB_NAME, version, {
      upgrade(database, oldVersion, _newVersion, tx) {
        // A failed step aborts the upgrade: the database stays at its old version, with its data.
        runMigrations(database, tx, oldVersion, version).catch(() => tx.abort());
      },
      blocked: () => options.onBlocked?.(),
      blocking: () => {
        db?.close();
        options.onVersionChange?.(
          new StorageUnavailableError(
            'version-change',
            'A newer version of this app was opened in another tab. Reload this page to keep working.',
          ),
        );
      },
      terminated: () =>
        options.onVersionChange?.(
          new StorageUnavailableError(
            'closed',
            "The browser closed this page's storage unexpectedly. Reload the page.",
          ),
        ),
    });
    return db;
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'VersionError') {
      throw new StorageUnavailableError(
        'open-failed',
        'This browser holds data saved by a newer version of the app. Open the newer version instead.',
      );
    }
    throw new StorageUnavailableError(
      'open-failed',
      `The browser's storage (IndexedDB) could not be opened${cause instanceof Error ? `: ${cause.message}` : ''}. Private windows and some privacy settings disable it.`,
    );
  }
}
