/**
 * The bench's page beside the app (same origin, so the same IndexedDB): seeds stored data through the app's own
 * storage (src/app/services.ts, as the page wires it) and times the storage repositories against raw idb.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { createServices } from '../../../src/app/services';
import { Message, type NewMessage } from '../../../src/domain/message';
import { schemaGuard } from '../../../src/domain/schema-guard';
import { createBrowserEnv } from '../../../src/platform/environment';
import { MODEL_API_OWNER } from '../../../src/storage/vault';
import { API_KEY_SLOT } from '../../../src/storage/vault';
import { storeBenchServers, type BenchServer, type SourceTool } from './bench-servers';
import type { SeedWorkerMessage } from './seed-worker';
import { benchMessages, type BenchContent } from './thread-content';
import { previewOf } from '../../../src/stores/thread-lifecycle';
import { searchProfile, type SearchProfileSpec } from './search-profile';

export interface SeedPlan {
  readonly apiKey?: string;
  /** The model API's base URL stored in the profile (the fake API of the run). */
  readonly baseUrl?: string;
  /** Threads of `messages` messages each (`plain` content unless said); the first listed is the one open on start. */
  readonly threads: readonly { readonly title: string; readonly messages: number; readonly content?: BenchContent }[];
  /** Servers with stored catalogs, as after earlier sessions (URLs on a closed port: they stay offline). */
  readonly servers?: readonly BenchServer[];
}

export interface StorageTimes {
  readonly appendApp: number[];
  readonly appendRaw: number[];
  readonly loadApp: number[];
  readonly loadRaw: number[];
  /** Checking the raw records with the Message schema's guard alone (what a load of well-formed records costs), once per load. */
  readonly guardOnly: number[];
  /** Parsing the raw records with zod alone (what a load cost before the guard, and still costs for records the guard refuses). */
  readonly zodOnly: number[];
}

declare global {
  interface Window {
    benchHarness?: {
      seed(plan: SeedPlan): Promise<void>;
      /** Stores a heavy user's threads (search-profile.ts) through the app's storage; resolves to how many messages. */
      seedSearchProfile(spec: SearchProfileSpec): Promise<number>;
      /** Gives a worker the source of `count` servers × `perServer` tools (see bench-servers.ts) to store later. */
      prepareServersOffThread(source: readonly SourceTool[], count: number, perServer: number): Promise<void>;
      /** Has the worker store them (the app's tab may share this page's main thread: the work stays off it). */
      storeServersOffThread(): Promise<void>;
      storage(messages: number, loads: number): Promise<StorageTimes>;
    };
  }
}

const servicesReady = createServices(createBrowserEnv(), () => undefined);

/** A 320×200 PNG, as a person's chart or screenshot (the rich threads' attachments). */
async function chartPng(): Promise<Blob> {
  const canvas = new OffscreenCanvas(320, 200);
  const context = canvas.getContext('2d')!;
  context.fillStyle = '#4a7';
  context.fillRect(0, 0, 320, 200);
  context.fillStyle = '#fff';
  context.font = '40px sans-serif';
  context.fillText('chart', 100, 110);
  return canvas.convertToBlob({ type: 'image/png' });
}

async function seed(plan: SeedPlan): Promise<void> {
  const image = chartPng();
  const { storage } = await servicesReady;
  const profile = await storage.profiles.ensureActive();
  if (plan.apiKey)
    await storage.vault.put({ profileId: profile.id, owner: MODEL_API_OWNER, slot: API_KEY_SLOT }, plan.apiKey);
  let first: string | undefined;
  // Oldest first, so the first listed ends up the most recent.
  for (const spec of [...plan.threads].reverse()) {
    const thread = await storage.threads.create(profile.id, { title: spec.title });
    for (const message of benchMessages(spec.messages, thread.id.slice(0, 8), spec.content)) {
      if (message.attachments) {
        const blob = await image;
        await storage.attachments.put(
          thread.id,
          message.attachments.map((a) => ({ id: a.id, blob })),
        );
      }
      await storage.messages.append(thread.id, message);
    }
    first = thread.id;
  }
  await storeBenchServers(storage, profile.id, plan.servers ?? []);
  await storage.profiles.update(profile.id, (current) => ({
    ...current,
    ...(first ? { lastThreadId: first } : {}),
    preferences: { ...current.preferences, ...(plan.baseUrl ? { baseUrl: plan.baseUrl } : {}) },
  }));
}

async function seedSearchProfile(spec: SearchProfileSpec): Promise<number> {
  const { storage } = await servicesReady;
  const profile = await storage.profiles.ensureActive();
  let stored = 0;
  let last: string | undefined;
  for (const planned of searchProfile(spec)) {
    const thread = await storage.threads.create(profile.id, { title: planned.title });
    const shown = [];
    for (const message of planned.messages) shown.push(await storage.messages.append(thread.id, message));
    stored += shown.length;
    if (planned.alternativeAt !== undefined) {
      const version = shown[planned.alternativeAt]!;
      await storage.messages.append(
        thread.id,
        { role: 'assistant', status: 'complete', blocks: [{ type: 'text', text: `Alternative answer (version 2)` }] },
        version.parentId,
      );
      await storage.messages.showBranch(thread.id, shown.at(-1)!.id);
      stored++;
    }
    const preview = previewOf(shown);
    if (preview) await storage.threads.update(thread.id, () => ({ preview }));
    last = thread.id;
  }
  if (last) await storage.profiles.update(profile.id, (current) => ({ ...current, lastThreadId: last }));
  return stored;
}

interface RawSchema extends DBSchema {
  threads: { key: string; value: { id: string; updatedAt: number } };
  messages: {
    key: string;
    value: NewMessage & { id: string; threadId: string; seq: number; createdAt: number; updatedAt: number };
    indexes: { byThreadSeq: [string, number] };
  };
}

/** What the messages repository does, written directly against idb: the same transaction, no parsing, no change bus. */
async function rawAppend(db: IDBPDatabase<RawSchema>, threadId: string, input: NewMessage): Promise<void> {
  const time = Date.now();
  const tx = db.transaction(['threads', 'messages'], 'readwrite');
  const thread = await tx.objectStore('threads').get(threadId);
  if (!thread) throw new Error('no thread');
  const last = await tx
    .objectStore('messages')
    .index('byThreadSeq')
    .openKeyCursor(IDBKeyRange.bound([threadId, 0], [threadId, Infinity]), 'prev');
  const seq = last ? last.key[1] + 1 : 0;
  await tx.objectStore('messages').add({
    ...input,
    trace: input.trace ?? [],
    id: crypto.randomUUID(),
    threadId,
    seq,
    createdAt: time,
    updatedAt: time,
  });
  await tx.objectStore('threads').put({ ...thread, updatedAt: time });
  await tx.done;
}

/** Appends timed together (see storage()). */
const APPEND_GROUP = 10;

/** Loads not measured, for both: the first ones also measure the JIT compiling the parser. */
const LOAD_WARMUP = 5;

/** Appends `count` messages to a new thread through the app's repository and through raw idb, interleaved; then loads it `loads` times each. */
async function storage(count: number, loads: number): Promise<StorageTimes> {
  const { storage: repos } = await servicesReady;
  const profile = await repos.profiles.ensureActive();
  const thread = await repos.threads.create(profile.id, { title: 'Storage benchmark' });
  const raw = await openDB<RawSchema>('bench-raw-idb', 1, {
    upgrade(db) {
      db.createObjectStore('threads', { keyPath: 'id' });
      db.createObjectStore('messages', { keyPath: 'id' }).createIndex('byThreadSeq', ['threadId', 'seq']);
    },
  });
  await raw.put('threads', { id: thread.id, updatedAt: Date.now() });
  const times: StorageTimes = { appendApp: [], appendRaw: [], loadApp: [], loadRaw: [], guardOnly: [], zodOnly: [] };
  const time = async (work: () => Promise<unknown>, into: number[]) => {
    const start = performance.now();
    await work();
    into.push(performance.now() - start);
  };
  const messages = benchMessages(count, 'storage');
  // Timed in groups of APPEND_GROUP appends, as ms per append: the page's clock ticks in 0.1 ms steps (no
  // cross-origin isolation), as coarse as one append, so single appends would give ratios of whole ticks.
  for (let start = 0, group = 0; start < messages.length; start += APPEND_GROUP, group++) {
    const batch = messages.slice(start, start + APPEND_GROUP);
    const perAppend = (work: () => Promise<unknown>, into: number[]) => async () => {
      const began = performance.now();
      await work();
      into.push((performance.now() - began) / batch.length);
    };
    const app = perAppend(async () => {
      for (const message of batch) await repos.messages.append(thread.id, message);
    }, times.appendApp);
    const direct = perAppend(async () => {
      for (const message of batch) await rawAppend(raw, thread.id, message);
    }, times.appendRaw);
    if (group % 2 === 0) await app().then(direct);
    else await direct().then(app);
  }
  const range = IDBKeyRange.bound([thread.id, 0], [thread.id, Infinity]);
  for (let i = 0; i < LOAD_WARMUP; i++)
    await Promise.all([repos.messages.list(thread.id), raw.getAllFromIndex('messages', 'byThreadSeq', range)]);
  for (let i = 0; i < loads; i++) {
    const app = () =>
      time(async () => {
        if ((await repos.messages.list(thread.id)).items.length !== messages.length)
          throw new Error('the app loaded a different thread');
      }, times.loadApp);
    const direct = () =>
      time(async () => {
        if ((await raw.getAllFromIndex('messages', 'byThreadSeq', range)).length !== messages.length)
          throw new Error('raw idb loaded a different thread');
      }, times.loadRaw);
    if (i % 2 === 0) await app().then(direct);
    else await direct().then(app);
  }
  // Afterwards, so that it does not warm the parser up for the loads above.
  const records = await raw.getAllFromIndex('messages', 'byThreadSeq', range);
  const guard = schemaGuard(Message);
  for (let i = 0; i < loads; i++) {
    let start = performance.now();
    for (const record of records) if (!guard(record)) throw new Error('the guard refused a record the app wrote');
    times.guardOnly.push(performance.now() - start);
    start = performance.now();
    for (const record of records) Message.safeParse(record);
    times.zodOnly.push(performance.now() - start);
  }
  raw.close();
  return times;
}

let seedWorker: Worker | undefined;

/** Asks the seed worker and waits for its answer ("prepared" or "stored"). */
function askSeedWorker(message: SeedWorkerMessage, expected: string): Promise<void> {
  const worker = (seedWorker ??= new Worker(new URL('./seed-worker.ts', import.meta.url), { type: 'module' }));
  return new Promise<void>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<string>) =>
      event.data === expected ? resolve() : reject(new Error(`the seed worker ${event.data}`));
    worker.onerror = (event) => reject(new Error(`the seed worker failed: ${event.message}`));
    worker.postMessage(message);
  });
}

window.benchHarness = {
  seed,
  seedSearchProfile,
  prepareServersOffThread: (source, count, perServer) =>
    askSeedWorker({ kind: 'prepare', source, count, perServer }, 'prepared'),
  storeServersOffThread: () => askSeedWorker({ kind: 'store' }, 'stored'),
  storage,
};
