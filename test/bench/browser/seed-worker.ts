/**
 * The harness's worker: stores servers with their catalogs through the app's storage, off the main thread. The app's
 * tab may share this page's renderer process (same site), so seeding there (or even handing the worker 10,000 tools
 * through it) would block the very page being timed: the worker gets the short source list ahead of time, builds the
 * servers itself and stores them when told. Changes are announced on the app's channel, as another tab's would be.
 */
import { silentLogger } from '../../../src/domain/logger';
import { createBackgroundSlices } from '../../../src/platform/background-slices';
import { CHANGE_CHANNEL, createChangeBus } from '../../../src/platform/change-bus';
import { openAppDatabase } from '../../../src/platform/database';
import { createWebCipher } from '../../../src/platform/web-crypto';
import { createStorage } from '../../../src/storage/storage';
import { benchServers, storeBenchServers, type BenchServer, type SourceTool } from './bench-servers';

async function storeServers(servers: readonly BenchServer[]): Promise<void> {
  const db = await openAppDatabase(indexedDB);
  const storage = createStorage({
    db,
    bus: createChangeBus(new BroadcastChannel(CHANGE_CHANNEL)),
    cipher: createWebCipher(crypto),
    now: () => Date.now(),
    newId: () => crypto.randomUUID(),
    logger: silentLogger,
    slices: createBackgroundSlices(),
  });
  const profile = await storage.profiles.ensureActive();
  await storeBenchServers(storage, profile.id, servers);
  db.close();
}

/** What the harness sends: first the source list and the catalog's shape, then "store". */
export type SeedWorkerMessage =
  | {
      readonly kind: 'prepare';
      readonly source: readonly SourceTool[];
      readonly count: number;
      readonly perServer: number;
    }
  | { readonly kind: 'store' };

let prepared: BenchServer[] = [];
self.onmessage = (event: MessageEvent<SeedWorkerMessage>) => {
  const message = event.data;
  if (message.kind === 'prepare') {
    prepared = benchServers(message.source, message.count, message.perServer);
    self.postMessage('prepared');
    return;
  }
  storeServers(prepared).then(
    () => self.postMessage('stored'),
    (error: unknown) => self.postMessage(`failed: ${error instanceof Error ? error.message : String(error)}`),
  );
};
