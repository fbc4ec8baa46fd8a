// A hand-written Storage (src/storage/storage.ts) in memory, for tests of stores and turns that need storage's
// answers and not IndexedDB: every record is parsed with the same zod schemas as the real repositories (a bad
// input is the same ValidationError), missing records are the same NotFoundError, profile and server names are
// unique as there, the last profile is never deleted, and every write is announced on the change bus. What it
// does not model it refuses loudly instead of faking: a change of a server's trust (origin or auth), whose
// approvals and thread places the real repository forgets (test that with openTestStorage, test-storage.ts).
import { NotFoundError, ValidationError, type Loaded } from '../../src/domain/errors';
import { AppConfig } from '../../src/domain/app-config';
import { pathTo, selectBranch } from '../../src/domain/branches';
import { ContextCompaction } from '../../src/domain/compaction';
import { Message } from '../../src/domain/message';
import { ServerConfig } from '../../src/domain/server-config';
import { serverOrigin, trustOf } from '../../src/domain/server-trust';
import { ThreadConfig } from '../../src/domain/thread-config';
import { ToolCatalog } from '../../src/domain/tool-catalog';
import { UserConfig } from '../../src/domain/user-config';
import { parseOrThrow } from '../../src/domain/validation';
import { createChangeBus } from '../../src/platform/change-bus';
import type { ProfilesRepo } from '../../src/storage/profiles-repo';
import type { Storage } from '../../src/storage/storage';
import type { ThreadsRepo } from '../../src/storage/threads-repo';
import type { DroppedApproval } from '../../src/storage/approval-notices-repo';
import { createMemoryVault } from './memory-vault';

export interface MemoryStorageOptions {
  readonly now?: () => number;
  /** Approvals the storage upgrade dropped, for the start-up notice. */
  readonly droppedApprovals?: readonly DroppedApproval[];
}

const loaded = <T>(items: readonly T[]): Loaded<T> => ({ items: [...items], skipped: [] });
const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** An in-memory Storage over one change bus (this tab only). */
export function createMemoryStorage(options: MemoryStorageOptions = {}): Storage {
  const now = options.now ?? (() => Date.now());
  let counter = 0;
  const newId = () => `mem-${++counter}`;
  const bus = createChangeBus(undefined);
  const profiles = new Map<string, UserConfig>();
  const servers = new Map<string, ServerConfig & { readonly profileId: string }>();
  const threads = new Map<string, ThreadConfig>();
  const messages = new Map<string, Message>();
  const compactions: ContextCompaction[] = [];
  const catalogs = new Map<string, ToolCatalog>();
  const attachments = new Map<string, { readonly threadId: string; readonly blob: Blob }>();
  let dropped = [...(options.droppedApprovals ?? [])];
  let appConfig: AppConfig | undefined;
  let activeId: string | undefined;
  const vault = createMemoryVault(bus, now);
  const serverKey = (profileId: string, serverId: string) => `${profileId}/${serverId}`;
  const threadMessages = (threadId: string) =>
    [...messages.values()].filter((m) => m.threadId === threadId).sort((a, b) => a.seq - b.seq);

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
      for (const thread of [...threads.values()].filter((t) => t.profileId === id)) await threadRepo.delete(thread.id);
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

  const threadRepo: ThreadsRepo = {
    list: async (profileId) =>
      loaded([...threads.values()].filter((t) => t.profileId === profileId).sort((a, b) => b.updatedAt - a.updatedAt)),
    get: async (id) => threads.get(id),
    async create(profileId, input = {}) {
      const time = now();
      const thread = parseOrThrow(
        ThreadConfig,
        { title: 'New thread', ...input, id: newId(), profileId, createdAt: time, updatedAt: time },
        'Thread',
      );
      threads.set(thread.id, thread);
      bus.publish({ store: 'threads', profileId, threadId: thread.id });
      return thread;
    },
    async update(id, change) {
      const current = threads.get(id);
      if (!current) throw new NotFoundError('thread', id);
      const next = parseOrThrow(
        ThreadConfig,
        { ...current, ...change(current), updatedAt: Math.max(now(), current.updatedAt) },
        'Thread',
      );
      threads.set(id, next);
      bus.publish({ store: 'threads', profileId: next.profileId, threadId: id });
      return next;
    },
    rename: (id, title) => threadRepo.update(id, () => ({ title })),
    async getEnabledServers(id) {
      const thread = threads.get(id);
      if (!thread) throw new NotFoundError('thread', id);
      return thread.enabledServerIds;
    },
    setEnabledServers: (id, serverIds) => threadRepo.update(id, () => ({ enabledServerIds: [...new Set(serverIds)] })),
    changeEnabledServers(id, change) {
      const off = new Set(change.disable);
      return threadRepo.update(id, (current) => ({
        enabledServerIds: [...new Set([...current.enabledServerIds, ...change.enable])].filter((s) => !off.has(s)),
      }));
    },
    async delete(id) {
      const thread = threads.get(id);
      for (const message of threadMessages(id)) messages.delete(message.id);
      compactions.splice(0, compactions.length, ...compactions.filter((c) => c.threadId !== id));
      for (const [key, a] of attachments) if (a.threadId === id) attachments.delete(key);
      threads.delete(id);
      bus.publish({ store: 'threads', threadId: id, ...(thread ? { profileId: thread.profileId } : {}) });
    },
  };

  return {
    appConfig: {
      get: async () => appConfig,
      async set(config) {
        appConfig = parseOrThrow(AppConfig, config, 'App config');
        bus.publish({ store: 'appConfig' });
      },
    },
    profiles: profileRepo,
    threads: threadRepo,
    messages: {
      // Branches as the real repository keeps them (issue #22): each message names the one it follows, and the
      // thread record keeps its shown branch's last message.
      async list(threadId) {
        const branch = selectBranch(threadMessages(threadId), threads.get(threadId)?.activeLeafId);
        return { items: branch.path, skipped: [], versions: branch.versions, offBranch: branch.offPath };
      },
      listTo: async (threadId, leafId) => loaded(pathTo(threadMessages(threadId), leafId)),
      async append(threadId, input, parentId) {
        const thread = threads.get(threadId);
        if (!thread) throw new NotFoundError('thread', threadId);
        const time = now();
        const last = threadMessages(threadId).at(-1);
        const seq = (last?.seq ?? -1) + 1;
        const after = parentId !== undefined ? parentId : (thread.activeLeafId ?? last?.id ?? null);
        const message = parseOrThrow(
          Message,
          { ...input, id: newId(), threadId, seq, parentId: after, createdAt: time, updatedAt: time },
          'Message',
        );
        messages.set(message.id, message);
        threads.set(threadId, { ...thread, activeLeafId: message.id, updatedAt: Math.max(time, thread.updatedAt) });
        bus.publish({ store: 'messages', threadId, key: message.id });
        return message;
      },
      async showBranch(threadId, messageId) {
        const thread = threads.get(threadId);
        if (!thread) throw new NotFoundError('thread', threadId);
        const nodes = threadMessages(threadId);
        if (!nodes.some((m) => m.id === messageId)) throw new NotFoundError('message', messageId);
        const end = selectBranch(nodes, messageId).path.at(-1)!.id;
        threads.set(threadId, { ...thread, activeLeafId: end });
        bus.publish({ store: 'messages', threadId });
        return end;
      },
      async update(id, change) {
        const current = messages.get(id);
        if (!current) throw new NotFoundError('message', id);
        const next = parseOrThrow(Message, { ...current, ...change, updatedAt: now() }, 'Message');
        messages.set(id, next);
        bus.publish({ store: 'messages', threadId: next.threadId, key: id });
        return next;
      },
      async markInterrupted(threadId, note) {
        const streaming = threadMessages(threadId).filter((m) => m.status === 'streaming');
        for (const m of streaming) messages.set(m.id, { ...m, status: 'interrupted', error: note, updatedAt: now() });
        if (streaming.length > 0) bus.publish({ store: 'messages', threadId });
        return streaming.length;
      },
    },
    attachments: {
      async put(threadId, items) {
        for (const item of items) attachments.set(item.id, { threadId, blob: item.blob });
      },
      get: async (id) => attachments.get(id)?.blob,
    },
    catalog: {
      get: async (profileId, serverId) => catalogs.get(serverKey(profileId, serverId)),
      list: async (profileId) => loaded([...catalogs.values()].filter((c) => c.profileId === profileId)),
      async set(catalog) {
        const valid = parseOrThrow(ToolCatalog, catalog, 'Tool catalog');
        catalogs.set(serverKey(valid.profileId, valid.serverId), valid);
        bus.publish({ store: 'catalog', profileId: valid.profileId, key: valid.serverId });
      },
      async delete(profileId, serverId) {
        catalogs.delete(serverKey(profileId, serverId));
        bus.publish({ store: 'catalog', profileId, key: serverId });
      },
    },
    usage: {
      async since(profileId, since) {
        const mine = new Set([...threads.values()].filter((t) => t.profileId === profileId).map((t) => t.id));
        return [...messages.values()]
          .filter((m) => mine.has(m.threadId) && m.updatedAt >= since)
          .map((m) => ({ updatedAt: m.updatedAt, trace: m.trace }));
      },
    },
    compactions: {
      list: async (threadId) => loaded(compactions.filter((c) => c.threadId === threadId)),
      async add(threadId, input) {
        const record = parseOrThrow(
          ContextCompaction,
          { ...input, id: newId(), threadId, createdAt: now() },
          'Compaction',
        );
        compactions.push(record);
        bus.publish({ store: 'messages', threadId });
        return record;
      },
    },
    approvalNotices: {
      async take(profileId) {
        const mine = dropped.filter((d) => d.profileId === profileId);
        dropped = dropped.filter((d) => d.profileId !== profileId);
        return mine;
      },
    },
    vault,
    changes: bus,
  };
}
