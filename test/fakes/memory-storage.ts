// A hand-written Storage (src/storage/storage.ts) in memory, for tests of stores and turns that need storage's
// answers and not IndexedDB: every record is parsed with the same zod schemas as the real repositories (a bad
// input is the same ValidationError), missing records are the same NotFoundError, profile and server names are
// unique as there, the last profile is never deleted, and every write is announced on the change bus. What it
// does not model it refuses loudly instead of faking: a change of a server's trust (origin or auth), whose
// approvals and thread places the real repository forgets (test that with openTestStorage, test-storage.ts).
import { AppConfig } from '../../src/domain/app-config';
import { DraftAttachment } from '../../src/domain/attachment';
import { ContextCompaction } from '../../src/domain/compaction';
import { ToolCatalog } from '../../src/domain/tool-catalog';
import { parseOrThrow } from '../../src/domain/validation';
import { createBackgroundSlices } from '../../src/platform/background-slices';
import type { Storage } from '../../src/storage/storage';
import type { DroppedApproval } from '../../src/storage/approval-notices-repo';
import { createMemoryProfilesRepo } from './memory-profiles-repo';
import { createMemoryRecords, loaded, serverKey } from './memory-records';
import { createMemoryMessagesRepo, createMemoryThreadsRepo } from './memory-threads-repo';

export interface MemoryStorageOptions {
  readonly now?: () => number;
  /** Approvals the storage upgrade dropped, for the start-up notice. */
  readonly droppedApprovals?: readonly DroppedApproval[];
}

/** An in-memory Storage over one change bus (this tab only). */
export function createMemoryStorage(options: MemoryStorageOptions = {}): Storage {
  const records = createMemoryRecords(options.now ?? (() => Date.now()));
  const { now, newId, bus, vault, threads, messages, compactions, catalogs, attachments } = records;
  let dropped = [...(options.droppedApprovals ?? [])];
  let appConfig: AppConfig | undefined;
  const threadRepo = createMemoryThreadsRepo(records);
  const draftTexts = new Map<string, string>();
  const draftItems = new Map<string, readonly DraftAttachment[]>();

  return {
    appConfig: {
      get: async () => appConfig,
      async set(config) {
        appConfig = parseOrThrow(AppConfig, config, 'App config');
        bus.publish({ store: 'appConfig' });
      },
    },
    profiles: createMemoryProfilesRepo(records, (id) => threadRepo.delete(id)),
    threads: threadRepo,
    messages: createMemoryMessagesRepo(records),
    attachments: {
      async put(threadId, items) {
        for (const item of items) attachments.set(item.id, { threadId, blob: item.blob });
      },
      get: async (id) => attachments.get(id)?.blob,
    },
    drafts: {
      // A deleted thread's draft goes with it, as in the real repository (its thread's deletion removes it).
      get: async (threadId) => (threads.has(threadId) ? draftTexts.get(threadId) || undefined : undefined),
      async put(threadId, text) {
        if (text === '') draftTexts.delete(threadId);
        else draftTexts.set(threadId, text);
      },
    },
    draftAttachments: {
      // Parsed as the real repository parses them; gone with their thread like the text.
      get: async (threadId) => ({
        items: threads.has(threadId) ? (draftItems.get(threadId) ?? []).map((i) => DraftAttachment.parse(i)) : [],
        dropped: [],
      }),
      async put(threadId, items) {
        if (items.length === 0) draftItems.delete(threadId);
        else draftItems.set(threadId, [...items]);
      },
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
    // Backups are tested over the real storage (openTestStorage): refused here rather than faked.
    threadArchive: {
      read: () => Promise.reject(new Error('threadArchive is not modeled in memory: use openTestStorage')),
      add: () => Promise.reject(new Error('threadArchive is not modeled in memory: use openTestStorage')),
      announce: () => {
        throw new Error('threadArchive is not modeled in memory: use openTestStorage');
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
    slices: createBackgroundSlices(),
  };
}
