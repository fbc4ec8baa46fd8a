import { NotFoundError, type Loaded } from '../domain/errors';
import { ThreadConfig } from '../domain/thread-config';
import { parseOrThrow } from '../domain/validation';
import { keyField, parseEach, parseRecord, writeTransaction } from './records';
import { keepUsageOfThread } from './deleted-usage';
import { draftAttachmentsKey } from './draft-attachments-repo';
import { draftKey } from './drafts-repo';
import type { StorageContext } from './storage-context';

export type NewThread = Partial<Pick<ThreadConfig, 'title' | 'enabledServerIds' | 'model' | 'systemPrompt'>>;
export type ThreadChange = Partial<Omit<ThreadConfig, 'id' | 'profileId' | 'createdAt' | 'updatedAt'>>;

/** Thread configs (one per conversation) and deleting a thread with its messages. */
/** A profile's threads: their settings, enabled servers, loaded tools and approvals. */
export interface ThreadsRepo {
  list(profileId: string): Promise<Loaded<ThreadConfig>>;
  get(id: string): Promise<ThreadConfig | undefined>;
  create(profileId: string, input?: NewThread): Promise<ThreadConfig>;
  /**
   * Changes the stored thread as `change` computes from its current value, in one transaction. `isActivity: false`
   * keeps `updatedAt` (and so the thread's place in the list) for a change that is no activity of the person's.
   */
  update(
    id: string,
    change: (current: ThreadConfig) => ThreadChange,
    options?: { readonly isActivity?: boolean },
  ): Promise<ThreadConfig>;
  /** `isActivity: false` (a person renaming it) keeps the thread's place in the list, as `update` says. */
  rename(id: string, title: string, options?: { readonly isActivity?: boolean }): Promise<ThreadConfig>;
  getEnabledServers(id: string): Promise<string[]>;
  setEnabledServers(id: string, serverIds: readonly string[]): Promise<ThreadConfig>;
  /** Switches servers on and off against what is stored now, so two tabs switching different servers both count. */
  changeEnabledServers(
    id: string,
    change: { readonly enable: readonly string[]; readonly disable: readonly string[] },
  ): Promise<ThreadConfig>;
  /** Marks the thread deleted (hidden from `list`, kept for Undo) or, with `false`, brings it back. */
  markDeleted(id: string, isDeleted: boolean): Promise<ThreadConfig>;
  /** Deletes the profile's threads marked deleted before `before` (deletions a closed page left waiting). */
  purgeDeleted(profileId: string, before: number): Promise<number>;
  /** Deletes the thread and all its messages in one transaction. */
  delete(id: string): Promise<void>;
}

export function createThreadsRepo({ db, bus, now, newId }: StorageContext): ThreadsRepo {
  const listAll = async (profileId: string): Promise<Loaded<ThreadConfig>> => {
    const range = IDBKeyRange.bound([profileId, -Infinity], [profileId, Infinity]);
    const records = await db.getAllFromIndex('threads', 'byProfileUpdated', range);
    return parseEach(ThreadConfig, 'thread', records.reverse(), keyField('id'));
  };
  const repo: ThreadsRepo = {
    /** The profile's threads, most recently active first; those marked deleted are left out. */
    async list(profileId: string): Promise<Loaded<ThreadConfig>> {
      const { items, skipped } = await listAll(profileId);
      return { items: items.filter((t) => t.deletedAt === undefined), skipped };
    },

    async get(id: string): Promise<ThreadConfig | undefined> {
      const record = await db.get('threads', id);
      return record === undefined ? undefined : parseRecord(ThreadConfig, 'thread', id, record);
    },

    async create(profileId: string, input: NewThread = {}): Promise<ThreadConfig> {
      const time = now();
      const thread = parseOrThrow(
        ThreadConfig,
        { title: 'New thread', ...input, id: newId(), profileId, createdAt: time, updatedAt: time },
        'Thread',
      );
      await writeTransaction(db, ['threads'], (tx) => tx.objectStore('threads').add(thread));
      bus.publish({ store: 'threads', profileId, threadId: thread.id });
      return thread;
    },

    /** Read-modify-write in one transaction; concurrent tabs never overwrite each other's fields. */
    async update(id, change, { isActivity = true } = {}) {
      const updated = await writeTransaction(db, ['threads'], async (tx) => {
        const store = tx.objectStore('threads');
        const stored = await store.get(id);
        if (stored === undefined) throw new NotFoundError('thread', id);
        const current = parseRecord(ThreadConfig, 'thread', id, stored);
        const next = parseOrThrow(
          ThreadConfig,
          {
            ...current,
            ...change(current),
            updatedAt: isActivity ? Math.max(now(), current.updatedAt) : current.updatedAt,
          },
          'Thread',
        );
        await store.put(next);
        return next;
      });
      bus.publish({ store: 'threads', profileId: updated.profileId, threadId: id });
      return updated;
    },

    rename(id: string, title: string, options?: { readonly isActivity?: boolean }): Promise<ThreadConfig> {
      return repo.update(id, () => ({ title }), options);
    },

    async getEnabledServers(id: string): Promise<string[]> {
      const thread = await repo.get(id);
      if (!thread) throw new NotFoundError('thread', id);
      return thread.enabledServerIds;
    },

    setEnabledServers(id: string, serverIds: readonly string[]): Promise<ThreadConfig> {
      return repo.update(id, () => ({ enabledServerIds: [...new Set(serverIds)] }));
    },

    /** Switches servers on and off against what is stored now, so two tabs switching different servers both count. */
    changeEnabledServers(
      id: string,
      change: { readonly enable: readonly string[]; readonly disable: readonly string[] },
    ): Promise<ThreadConfig> {
      const off = new Set(change.disable);
      return repo.update(id, (current) => ({
        enabledServerIds: [...new Set([...current.enabledServerIds, ...change.enable])].filter((s) => !off.has(s)),
      }));
    },

    markDeleted(id: string, isDeleted: boolean): Promise<ThreadConfig> {
      return repo.update(id, () => ({ deletedAt: isDeleted ? now() : undefined }), { isActivity: false });
    },

    async purgeDeleted(profileId: string, before: number): Promise<number> {
      const { items } = await listAll(profileId);
      const isStale = (t?: Record<string, unknown>) => typeof t?.deletedAt === 'number' && t.deletedAt < before;
      let purged = 0;
      // Checked again inside each deletion's transaction: an Undo in another tab may have cleared the mark since.
      for (const thread of items.filter(isStale)) if (await deleteIf(thread.id, isStale)) purged++;
      return purged;
    },

    async delete(id: string): Promise<void> {
      await deleteIf(id, () => true);
    },
  };

  /**
   * Deletes the thread, all its messages and its context compactions in one transaction, if `should` says so of it;
   * its recent model calls stay counted by the spending limits.
   */
  const deleteIf = async (id: string, should: (stored?: Record<string, unknown>) => boolean): Promise<boolean> => {
    let isDeleted = false;
    const stores: ['threads', 'messages', 'compactions', 'attachments', 'meta'] = [
      'threads',
      'messages',
      'compactions',
      'attachments',
      'meta',
    ];
    const profileId = await writeTransaction(db, stores, async (tx) => {
      const stored = await tx.objectStore('threads').get(id);
      if (!should(stored)) return undefined;
      isDeleted = true;
      // The messages are read once, whole: their usage is kept, and their ids (the store's key path) say what to delete.
      const messages: unknown[] = await tx
        .objectStore('messages')
        .index('byThreadSeq')
        .getAll(IDBKeyRange.bound([id, 0], [id, Infinity]));
      await keepUsageOfThread(tx, messages, stored?.profileId, now());
      for (const message of messages) await tx.objectStore('messages').delete((message as { id: string }).id);
      const compactions = await tx
        .objectStore('compactions')
        .index('byThread')
        .getAllKeys(IDBKeyRange.bound([id, 0], [id, Infinity]));
      for (const key of compactions) await tx.objectStore('compactions').delete(key);
      const attachments = await tx.objectStore('attachments').index('byThread').getAllKeys(id);
      for (const key of attachments) await tx.objectStore('attachments').delete(key);
      await tx.objectStore('meta').delete(draftKey(id));
      await tx.objectStore('meta').delete(draftAttachmentsKey(id));
      await tx.objectStore('threads').delete(id);
      return stored?.profileId;
    });
    if (isDeleted) bus.publish({ store: 'threads', threadId: id, ...(profileId === undefined ? {} : { profileId }) });
    return isDeleted;
  };
  return repo;
}
