// The profiles repository of the in-memory Storage: profile and server names unique as in the real one, the last
// profile never deleted, and a change of a server's trust refused loudly (the real repository forgets approvals then).
import { NotFoundError, ValidationError } from '../../src/domain/errors';
import { ServerConfig } from '../../src/domain/server-config';
import { serverOrigin, trustOf } from '../../src/domain/server-trust';
import { UserConfig } from '../../src/domain/user-config';
import { parseOrThrow } from '../../src/domain/validation';
import type { ProfilesRepo } from '../../src/storage/profiles-repo';
import { loaded, serverKey, type MemoryRecords } from './memory-records';

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Profiles and their servers over `records`; deleting a profile deletes its threads with `deleteThread`. */
export function createMemoryProfilesRepo(
  records: MemoryRecords,
  deleteThread: (id: string) => Promise<void>,
): ProfilesRepo {
  const { now, newId, bus, vault, profiles, servers, threads, catalogs } = records;
  let activeId: string | undefined;

  const profileRepo: ProfilesRepo = {
    list: async () => loaded([...profiles.values()]),
    get: async (id) => profiles.get(id),
    async create(input) {
      const profile = parseOrThrow(UserConfig, { ...input, id: newId(), createdAt: now() }, 'Profile');
      if ([...profiles.values()].some((p) => sameName(p.name, profile.name)))
        throw new ValidationError('Profile', [
          { path: 'name', message: `A profile named "${profile.name}" already exists` },
        ]);
      profiles.set(profile.id, profile);
      bus.publish({ store: 'profiles', profileId: profile.id });
      return profile;
    },
    async update(id, change) {
      const current = profiles.get(id);
      if (!current) throw new NotFoundError('profile', id);
      const next = parseOrThrow(UserConfig, { ...change(current), id }, 'Profile');
      profiles.set(id, next);
      bus.publish({ store: 'profiles', profileId: id });
      return next;
    },
    async delete(id) {
      if (!profiles.has(id)) throw new NotFoundError('profile', id);
      if (profiles.size === 1)
        throw new ValidationError('Profile', [
          { path: '', message: 'The last profile cannot be deleted; create another one first' },
        ]);
      for (const thread of [...threads.values()].filter((t) => t.profileId === id)) await deleteThread(thread.id);
      for (const [key, server] of servers) if (server.profileId === id) servers.delete(key);
      for (const [key, catalog] of catalogs) if (catalog.profileId === id) catalogs.delete(key);
      await vault.forgetPassphrase(id);
      profiles.delete(id);
      if (activeId === id) activeId = undefined;
      bus.publish({ store: 'profiles', profileId: id });
    },
    getActiveId: async () => activeId,
    async setActiveId(id) {
      activeId = id;
    },
    async ensureActive() {
      const active = activeId === undefined ? undefined : profiles.get(activeId);
      if (active) return active;
      const first =
        [...profiles.values()].sort((a, b) => a.createdAt - b.createdAt)[0] ??
        (await profileRepo.create({ name: 'Default' }));
      activeId = first.id;
      return first;
    },
    async listServers(profileId) {
      return loaded(
        [...servers.values()].filter((s) => s.profileId === profileId).map(({ profileId: _owner, ...s }) => s),
      );
    },
    async saveServer(profileId, input, reservedNames = []) {
      const server = parseOrThrow(ServerConfig, input, 'Server');
      if (!profiles.has(profileId)) throw new NotFoundError('profile', profileId);
      const siblings = [...servers.values()].filter((s) => s.profileId === profileId);
      if (
        siblings.some((s) => s.id !== server.id && sameName(s.name, server.name)) ||
        reservedNames.some((n) => sameName(n, server.name))
      )
        throw new ValidationError('Server', [
          { path: 'name', message: `A server named "${server.name}" already exists` },
        ]);
      const before = servers.get(serverKey(profileId, server.id));
      if (before && JSON.stringify(trustOf(before)) !== JSON.stringify(trustOf(server)))
        throw new Error('createMemoryStorage does not model a change of trust; use openTestStorage for it');
      servers.set(serverKey(profileId, server.id), { ...server, profileId });
      bus.publish({ store: 'servers', profileId, key: server.id });
      return server;
    },
    async reconcileAppServers(profileId, list) {
      const profile = profiles.get(profileId);
      if (!profile) return;
      const record = Object.fromEntries(list.map((s) => [s.id, s.trust]));
      const seen = profile.appServerTrust;
      if (Object.keys(seen).some((id) => JSON.stringify(seen[id]) !== JSON.stringify(record[id])))
        throw new Error('createMemoryStorage does not model a change of trust; use openTestStorage for it');
      profiles.set(profileId, { ...profile, appServerTrust: record });
    },
    async removeServer(profileId, serverId) {
      const stored = servers.get(serverKey(profileId, serverId));
      servers.delete(serverKey(profileId, serverId));
      catalogs.delete(serverKey(profileId, serverId));
      await vault.clearOwner(profileId, serverId);
      for (const thread of threads.values())
        if (thread.profileId === profileId && thread.enabledServerIds.includes(serverId))
          threads.set(thread.id, {
            ...thread,
            enabledServerIds: thread.enabledServerIds.filter((s) => s !== serverId),
          });
      const profile = profiles.get(profileId);
      if (profile)
        profiles.set(profileId, {
          ...profile,
          defaultServerIds: profile.defaultServerIds.filter((s) => s !== serverId),
          ...(stored
            ? { retiredServerIds: { ...profile.retiredServerIds, [serverId]: serverOrigin(stored.url) } }
            : {}),
        });
      bus.publish({ store: 'servers', profileId, key: serverId });
      bus.publish({ store: 'threads', profileId });
    },
  };
  return profileRepo;
}
