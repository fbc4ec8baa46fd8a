// The threads and messages repositories of the in-memory Storage: records parsed with the real zod schemas, missing
// ones the same NotFoundError, and branches kept as the real repository keeps them.
import { NotFoundError } from '../../src/domain/errors';
import { pathTo, selectBranch } from '../../src/domain/branches';
import { Message } from '../../src/domain/message';
import { ThreadConfig } from '../../src/domain/thread-config';
import { parseOrThrow } from '../../src/domain/validation';
import { latestMatch, type MessageMatch } from '../../src/domain/message-text';
import type { MessagesRepo } from '../../src/storage/messages-repo';
import type { ThreadsRepo } from '../../src/storage/threads-repo';
import { loaded, threadMessages as messagesOf, type MemoryRecords } from './memory-records';

/** Threads over `records`; deleting one deletes its messages, compactions and attachments. */
export function createMemoryThreadsRepo(records: MemoryRecords): ThreadsRepo {
  const { now, newId, bus, threads, messages, compactions, attachments } = records;
  const threadMessages = (threadId: string) => messagesOf(records, threadId);

  const threadRepo: ThreadsRepo = {
    list: async (profileId) =>
      loaded(
        [...threads.values()]
          .filter((t) => t.profileId === profileId && t.deletedAt === undefined)
          .sort((a, b) => b.updatedAt - a.updatedAt),
      ),
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
    async update(id, change, { isActivity = true } = {}) {
      const current = threads.get(id);
      if (!current) throw new NotFoundError('thread', id);
      const next = parseOrThrow(
        ThreadConfig,
        {
          ...current,
          ...change(current),
          updatedAt: isActivity ? Math.max(now(), current.updatedAt) : current.updatedAt,
        },
        'Thread',
      );
      threads.set(id, next);
      bus.publish({ store: 'threads', profileId: next.profileId, threadId: id });
      return next;
    },
    rename: (id, title) => threadRepo.update(id, () => ({ title })),
    markDeleted: (id, isDeleted) =>
      threadRepo.update(id, () => ({ deletedAt: isDeleted ? now() : undefined }), { isActivity: false }),
    async purgeDeleted(profileId, before) {
      const stale = [...threads.values()].filter(
        (t) => t.profileId === profileId && t.deletedAt !== undefined && t.deletedAt < before,
      );
      for (const thread of stale) await threadRepo.delete(thread.id);
      return stale.length;
    },
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
  return threadRepo;
}

/** Messages over `records`, each thread's shown branch kept on its record. */
export function createMemoryMessagesRepo(records: MemoryRecords): MessagesRepo {
  const { now, newId, bus, threads, messages } = records;
  const threadMessages = (threadId: string) => messagesOf(records, threadId);

  return {
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
    async search(threadIds, needle) {
      const found = new Map<string, MessageMatch>();
      for (const threadId of threadIds) {
        const match = latestMatch(
          selectBranch(threadMessages(threadId), threads.get(threadId)?.activeLeafId).path,
          needle,
        );
        if (match) found.set(threadId, match);
      }
      return found;
    },
    prepareSearch: () => undefined,
  };
}
