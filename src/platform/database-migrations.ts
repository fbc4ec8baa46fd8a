import type { IDBPDatabase } from 'idb';
import { dropApprovalsWithoutOrigin } from './approvals-migration';
import { linkMessageParents } from './branches-migration';
import type { AppSchema, UpgradeTransaction } from './database-schema';

type Migration = (db: IDBPDatabase<AppSchema>, tx: UpgradeTransaction) => Promise<void> | void;

/**
 * Schema history; step N turns a version N-1 database into version N. Steps only ever get added:
 * a browser may hold a database of any earlier version.
 */
export const MIGRATIONS: readonly Migration[] = [
  // v1: configuration, threads and messages.
  (db) => {
    db.createObjectStore('meta', { keyPath: 'key' });
    db.createObjectStore('appConfig', { keyPath: 'key' });
    db.createObjectStore('profiles', { keyPath: 'id' });
    db.createObjectStore('servers', { keyPath: ['profileId', 'id'] }).createIndex('byProfile', 'profileId');
    db.createObjectStore('threads', { keyPath: 'id' }).createIndex('byProfile', 'profileId');
    db.createObjectStore('messages', { keyPath: 'id' }).createIndex('byThreadSeq', ['threadId', 'seq'], {
      unique: true,
    });
  },
  // v2: the token vault, the deferred tool catalog, threads listed by recency and tools loaded per thread.
  async (db, tx) => {
    const credentials = db.createObjectStore('credentials', { keyPath: ['profileId', 'owner', 'slot'] });
    credentials.createIndex('byOwner', ['profileId', 'owner']);
    credentials.createIndex('byProfile', 'profileId');
    db.createObjectStore('vaultKeys', { keyPath: 'profileId' });
    db.createObjectStore('catalog', { keyPath: ['profileId', 'serverId'] }).createIndex('byProfile', 'profileId');
    const threads = tx.objectStore('threads');
    threads.createIndex('byProfileUpdated', ['profileId', 'updatedAt']);
    for (let cursor = await threads.openCursor(); cursor; cursor = await cursor.continue()) {
      const thread = cursor.value;
      if (!Array.isArray(thread.loadedTools) || !Array.isArray(thread.pinnedTools)) {
        await cursor.update({
          ...thread,
          loadedTools: thread.loadedTools ?? [],
          pinnedTools: thread.pinnedTools ?? [],
        });
      }
    }
  },
  // v3: approvals name the server origin they were given for; those stored without one are dropped, with a notice.
  (_db, tx) => dropApprovalsWithoutOrigin(tx),
  // v4: compactions of a thread's model context, in order (issue #17); messages stay as they are.
  (db) => {
    db.createObjectStore('compactions', { keyPath: 'id' }).createIndex('byThread', ['threadId', 'createdAt']);
  },
  // v5: the bytes of message attachments, as blobs, apart from the messages that name them (issues #20, #22).
  (db) => {
    db.createObjectStore('attachments', { keyPath: 'id' }).createIndex('byThread', 'threadId');
  },
  // v6: each message names the one it follows, for branches (issue #22).
  (_db, tx) => linkMessageParents(tx),
];

export const CURRENT_DB_VERSION = MIGRATIONS.length;
