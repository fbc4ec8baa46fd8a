import { z } from 'zod';
import { NotFoundError, ValidationError, type Loaded } from '../domain/errors';
import { ServerConfig, type ServerConfigInput } from '../domain/server-config';
import { UserConfig, type UserConfigInput } from '../domain/user-config';
import { parseOrThrow } from '../domain/validation';
import { serverOrigin, trustOf, type ServerTrust } from '../domain/server-trust';
import { keyField, parseEach, parseRecord, writeTransaction } from './records';
import { deletedUsageKey } from './deleted-usage';
import { draftAttachmentsKey } from './draft-attachments-repo';
import { draftKey } from './drafts-repo';
import { forgetServer, storedTrust, trustChange } from './server-trust-records';
import type { StorageContext } from './storage-context';

const ACTIVE_PROFILE = 'activeProfileId';
const ServerRecord = ServerConfig.extend({ profileId: z.string() });

/** Profiles (user configs) and each profile's own servers. */
export interface ProfilesRepo {
  list(): Promise<Loaded<UserConfig>>;
  get(id: string): Promise<UserConfig | undefined>;
  /** Adds a profile; its name must be unique in this browser (ignoring case). */
  create(input: Omit<UserConfigInput, 'id' | 'createdAt'>): Promise<UserConfig>;
  /** Read-modify-write in one transaction, so concurrent tabs never lose each other's changes. */
  update(id: string, change: (current: UserConfig) => UserConfigInput): Promise<UserConfig>;
  /** Deletes the profile with everything it owns; the last profile is never deleted. */
  delete(id: string): Promise<void>;
  getActiveId(): Promise<string | undefined>;
  setActiveId(id: string): Promise<void>;
  /** The active profile, creating a first one on a fresh browser. */
  ensureActive(): Promise<UserConfig>;
  listServers(profileId: string): Promise<Loaded<ServerConfig>>;
  /** Adds or replaces one of the profile's servers; names are unique within the profile and apart from `reservedNames`. */
  saveServer(profileId: string, input: ServerConfigInput, reservedNames?: readonly string[]): Promise<ServerConfig>;
  /**
   * Forgets the trust (approvals, thread places) and the stored credentials (sign-in tokens) of app servers the deployer
   * moved, changed the auth of, or took away since last start.
   */
  reconcileAppServers(
    profileId: string,
    servers: readonly { readonly id: string; readonly trust: ServerTrust }[],
  ): Promise<void>;
  /** Removes a server with its catalog, credentials and trust; its id retires with its origin. */
  removeServer(profileId: string, serverId: string): Promise<void>;
}

/** The profiles repository over IndexedDB. */
export function createProfilesRepo({ db, bus, now, newId }: StorageContext): ProfilesRepo {
  const repo: ProfilesRepo = {
    async list(): Promise<Loaded<UserConfig>> {
      return parseEach(UserConfig, 'profile', await db.getAll('profiles'), keyField('id'));
    },

    async get(id: string): Promise<UserConfig | undefined> {
      const record = await db.get('profiles', id);
      return record === undefined ? undefined : parseRecord(UserConfig, 'profile', id, record);
    },

    /** Adds a profile; its name must be unique in this browser (ignoring case). */
    async create(input: Omit<UserConfigInput, 'id' | 'createdAt'>): Promise<UserConfig> {
      const profile = parseOrThrow(UserConfig, { ...input, id: newId(), createdAt: now() }, 'Profile');
      await writeTransaction(db, ['profiles'], async (tx) => {
        const store = tx.objectStore('profiles');
        const taken = (await store.getAll()).some(
          (p) => String(p.name).trim().toLowerCase() === profile.name.toLowerCase(),
        );
        if (taken)
          throw new ValidationError('Profile', [
            { path: 'name', message: `A profile named "${profile.name}" already exists` },
          ]);
        await store.add(profile);
      });
      bus.publish({ store: 'profiles', profileId: profile.id });
      return profile;
    },

    /** Read-modify-write in one transaction, so concurrent tabs never lose each other's changes. */
    async update(id: string, change: (current: UserConfig) => UserConfigInput): Promise<UserConfig> {
      const updated = await writeTransaction(db, ['profiles'], async (tx) => {
        const store = tx.objectStore('profiles');
        const stored = await store.get(id);
        if (stored === undefined) throw new NotFoundError('profile', id);
        const next = parseOrThrow(
          UserConfig,
          { ...change(parseRecord(UserConfig, 'profile', id, stored)), id },
          'Profile',
        );
        await store.put(next);
        return next;
      });
      bus.publish({ store: 'profiles', profileId: id });
      return updated;
    },

    /**
     * Deletes the profile with everything it owns: servers, threads, messages, catalog, credentials and its vault key.
     * The last profile is never deleted (the app always has one to open).
     */
    async delete(id: string): Promise<void> {
      await writeTransaction(
        db,
        ['profiles', 'servers', 'threads', 'messages', 'catalog', 'credentials', 'vaultKeys', 'meta'],
        async (tx) => {
          const ids = await tx.objectStore('profiles').getAllKeys();
          if (!ids.includes(id)) throw new NotFoundError('profile', id);
          if (ids.length === 1)
            throw new ValidationError('Profile', [
              { path: '', message: 'The last profile cannot be deleted; create another one first' },
            ]);
          const threadIds = await tx.objectStore('threads').index('byProfile').getAllKeys(id);
          for (const threadId of threadIds) {
            const messageKeys = await tx
              .objectStore('messages')
              .index('byThreadSeq')
              .getAllKeys(IDBKeyRange.bound([threadId, 0], [threadId, Infinity]));
            for (const key of messageKeys) await tx.objectStore('messages').delete(key);
            await tx.objectStore('meta').delete(draftKey(threadId));
            await tx.objectStore('meta').delete(draftAttachmentsKey(threadId));
            await tx.objectStore('threads').delete(threadId);
          }
          for (const storeName of ['servers', 'catalog', 'credentials'] as const) {
            const keys = await tx.objectStore(storeName).index('byProfile').getAllKeys(id);
            for (const key of keys) await tx.objectStore(storeName).delete(key);
          }
          await tx.objectStore('vaultKeys').delete(id);
          await tx.objectStore('profiles').delete(id);
          const active = await tx.objectStore('meta').get(ACTIVE_PROFILE);
          if (active?.value === id) await tx.objectStore('meta').delete(ACTIVE_PROFILE);
          await tx.objectStore('meta').delete(deletedUsageKey(id));
        },
      );
      bus.publish({ store: 'profiles', profileId: id });
    },

    async getActiveId(): Promise<string | undefined> {
      const record = await db.get('meta', ACTIVE_PROFILE);
      return typeof record?.value === 'string' ? record.value : undefined;
    },

    async setActiveId(id: string): Promise<void> {
      await writeTransaction(db, ['meta'], (tx) => tx.objectStore('meta').put({ key: ACTIVE_PROFILE, value: id }));
    },

    /** The active profile, creating a first one on a fresh browser. */
    async ensureActive(): Promise<UserConfig> {
      const activeId = await repo.getActiveId();
      const active = activeId === undefined ? undefined : await repo.get(activeId);
      if (active) return active;
      const { items } = await repo.list();
      const profile = items.sort((a, b) => a.createdAt - b.createdAt)[0] ?? (await repo.create({ name: 'Default' }));
      await repo.setActiveId(profile.id);
      return profile;
    },

    async listServers(profileId: string): Promise<Loaded<ServerConfig>> {
      const records = await db.getAllFromIndex('servers', 'byProfile', profileId);
      const loaded = parseEach(ServerRecord, 'server', records, keyField('id'));
      return { items: loaded.items.map(({ profileId: _owner, ...server }) => server), skipped: loaded.skipped };
    },

    /**
     * Adds or replaces one of the profile's servers. Names must be unique within the profile and must not
     * clash with `reservedNames` (the app-level servers).
     */
    async saveServer(
      profileId: string,
      input: ServerConfigInput,
      reservedNames: readonly string[] = [],
    ): Promise<ServerConfig> {
      const server = parseOrThrow(ServerConfig, input, 'Server');
      const isThreadChanged = await writeTransaction(db, ['profiles', 'servers', 'threads'], async (tx) => {
        const profile = await tx.objectStore('profiles').get(profileId);
        if (profile === undefined) throw new NotFoundError('profile', profileId);
        const siblings = await tx.objectStore('servers').index('byProfile').getAll(profileId);
        const name = server.name.toLowerCase();
        const clash =
          siblings.some((s) => s.id !== server.id && String(s.name).toLowerCase() === name) ||
          reservedNames.some((n) => n.toLowerCase() === name);
        if (clash)
          throw new ValidationError('Server', [
            { path: 'name', message: `A server named "${server.name}" already exists` },
          ]);
        const before = siblings.find((s) => s.id === server.id);
        const trust = trustOf(server);
        if (before === undefined) checkIdNotRetired(profile, server.id, trust.origin);
        await tx.objectStore('servers').put({ ...server, profileId });
        const change = before === undefined ? undefined : trustChange(storedTrust(before), trust);
        return change === undefined ? false : forgetServer(tx, profileId, server.id, change);
      });
      bus.publish({ store: 'servers', profileId, key: server.id });
      if (isThreadChanged) bus.publish({ store: 'threads', profileId });
      return server;
    },

    /**
     * Compares the app's servers with those this profile last started with: one the deployer moved to another
     * origin or auth, or took away, loses its approvals (and, moved or gone, its thread places; gone, its id retires).
     */
    async reconcileAppServers(
      profileId: string,
      servers: readonly { readonly id: string; readonly trust: ServerTrust }[],
    ): Promise<void> {
      const isThreadChanged = await writeTransaction(db, ['profiles', 'threads', 'credentials'], async (tx) => {
        const profile = await tx.objectStore('profiles').get(profileId);
        if (profile === undefined) return false;
        const seen = parseRecord(UserConfig, 'profile', profileId, profile).appServerTrust;
        const now = new Map(servers.map((s) => [s.id, s.trust]));
        let changed = false;
        for (const [id, before] of Object.entries(seen)) {
          const after = now.get(id);
          const change = after ? trustChange(before, after) : { dropPlaces: true, retireAt: before.origin };
          if (!change) continue;
          changed = (await forgetServer(tx, profileId, id, change)) || changed;
          // Tokens the person got from it were issued by the old origin (or for the old way in): never sent elsewhere.
          const credentials = tx.objectStore('credentials');
          for (const key of await credentials.index('byOwner').getAllKeys([profileId, id]))
            await credentials.delete(key);
        }
        const latest = (await tx.objectStore('profiles').get(profileId)) ?? profile;
        const record = Object.fromEntries(servers.map((s) => [s.id, s.trust]));
        if (JSON.stringify(record) !== JSON.stringify(seen))
          await tx.objectStore('profiles').put({ ...latest, appServerTrust: record });
        return changed;
      });
      if (isThreadChanged) bus.publish({ store: 'threads', profileId });
    },

    /**
     * Removes a server with its catalog and credentials, and forgets its trust: its approvals and its place in every
     * thread and in the default set. Its id is retired with its origin, so it never names a server elsewhere.
     */
    async removeServer(profileId: string, serverId: string): Promise<void> {
      const stores = ['servers', 'catalog', 'credentials', 'profiles', 'threads'] as const;
      await writeTransaction(db, [...stores], async (tx) => {
        const stored = await tx.objectStore('servers').get([profileId, serverId]);
        await tx.objectStore('servers').delete([profileId, serverId]);
        await tx.objectStore('catalog').delete([profileId, serverId]);
        const credentialKeys = await tx.objectStore('credentials').index('byOwner').getAllKeys([profileId, serverId]);
        for (const key of credentialKeys) await tx.objectStore('credentials').delete(key);
        const retireAt = typeof stored?.url === 'string' ? serverOrigin(stored.url) : undefined;
        await forgetServer(tx, profileId, serverId, { dropPlaces: true, ...(retireAt ? { retireAt } : {}) });
      });
      bus.publish({ store: 'servers', profileId, key: serverId });
      bus.publish({ store: 'threads', profileId });
    },
  };
  return repo;
}

/** A new server may not take an id a removed server had at another origin: its old trust must never reach it. */
function checkIdNotRetired(profile: Record<string, unknown>, serverId: string, origin: string): void {
  const retired = profile.retiredServerIds as Record<string, unknown> | undefined;
  const was = retired?.[serverId];
  if (typeof was === 'string' && was !== origin)
    throw new ValidationError('Server', [
      { path: 'id', message: `The id "${serverId}" belonged to a removed server at ${was}; choose another id` },
    ]);
}
