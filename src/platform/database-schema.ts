import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';

/**
 * The IndexedDB contract. Values are typed as written; every read is parsed again with zod by storage/,
 * so a record changed by an older version, another tab or a person in devtools cannot crash the app.
 */
export interface AppSchema extends DBSchema {
  meta: { key: string; value: { key: string; value: unknown } };
  appConfig: { key: string; value: { key: string; config: unknown; loadedAt: number } };
  profiles: { key: string; value: Record<string, unknown> & { id: string } };
  servers: {
    key: [string, string];
    value: Record<string, unknown> & { profileId: string; id: string };
    indexes: { byProfile: string };
  };
  threads: {
    key: string;
    value: Record<string, unknown> & { id: string; profileId: string; updatedAt: number };
    indexes: { byProfile: string; byProfileUpdated: [string, number] };
  };
  messages: {
    key: string;
    value: Record<string, unknown> & { id: string; threadId: string; seq: number };
    indexes: { byThreadSeq: [string, number] };
  };
  credentials: {
    key: [string, string, string];
    value: { profileId: string; owner: string; slot: string; envelope: unknown; updatedAt: number };
    indexes: { byOwner: [string, string]; byProfile: string };
  };
  /** Per profile: the key itself (no passphrase), or only its wrapped form under a passphrase-derived key. */
  vaultKeys: {
    key: string;
    value: { profileId: string; keyId: string; key?: CryptoKey; wrapped?: unknown; createdAt: number };
  };
  /** Compactions of threads' model context (the messages themselves are never changed). */
  compactions: {
    key: string;
    value: Record<string, unknown> & { id: string; threadId: string; createdAt: number };
    indexes: { byThread: [string, number] };
  };
  /** Bytes of message attachments (files and resources), named by the messages' `attachments`. */
  attachments: {
    key: string;
    value: { id: string; threadId: string; blob: Blob; createdAt: number };
    indexes: { byThread: string };
  };
  catalog: {
    key: [string, string];
    value: Record<string, unknown> & { profileId: string; serverId: string };
    indexes: { byProfile: string };
  };
}

export type AppDatabase = IDBPDatabase<AppSchema>;
export type AppStoreName = StoreNames<AppSchema>;
export type UpgradeTransaction = IDBPTransaction<AppSchema, AppStoreName[], 'versionchange'>;
