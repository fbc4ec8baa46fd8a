import { IDBFactory } from 'fake-indexeddb';
import { createBackgroundSlices, type BackgroundSlices } from '../../src/platform/background-slices';
import { createChangeBus, type ChangeBus } from '../../src/platform/change-bus';
import { openAppDatabase, type OpenDatabaseOptions } from '../../src/platform/database';
import type { AppDatabase } from '../../src/platform/database-schema';
import { createWebCipher } from '../../src/platform/web-crypto';
import { createStorage, type Storage } from '../../src/storage/storage';

export interface TestStorage {
  readonly storage: Storage;
  readonly db: AppDatabase;
  readonly bus: ChangeBus;
  readonly factory: IDBFactory;
  close(): void;
}

let counter = 0;

/**
 * The real storage layer over fake-indexeddb. Pass the same `factory` and `name` to open a second "tab";
 * `channelName` links their change buses through Node's real BroadcastChannel.
 */
export async function openTestStorage(
  options: {
    factory?: IDBFactory;
    name?: string;
    channelName?: string;
    now?: () => number;
    /** The page's background scheduler (a real one when omitted; in Node it hears no keys). */
    slices?: BackgroundSlices;
  } & Pick<OpenDatabaseOptions, 'version' | 'onVersionChange'> = {},
): Promise<TestStorage> {
  const factory = options.factory ?? new IDBFactory();
  // fake-indexeddb's factories share one backing store, so isolation comes from a unique name.
  const db = await openAppDatabase(factory, {
    name: options.name ?? `test-${++counter}`,
    version: options.version,
    onVersionChange: options.onVersionChange,
  });
  const bus = createChangeBus(options.channelName ? new BroadcastChannel(options.channelName) : undefined);
  const storage = createStorage({
    db,
    bus,
    cipher: createWebCipher(globalThis.crypto),
    now: options.now ?? (() => Date.now()),
    newId: () => `id-${++counter}-${globalThis.crypto.randomUUID().slice(0, 8)}`,
    slices: options.slices ?? createBackgroundSlices(),
  });
  return { storage, db, bus, factory, close: () => (bus.close(), db.close()) };
}
