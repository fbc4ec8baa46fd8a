// The records of one in-memory Storage (memory-storage.ts) and what its repositories share: the clock, ids, the
// change bus of this tab and the vault.
import type { Loaded } from '../../src/domain/errors';
import type { ContextCompaction } from '../../src/domain/compaction';
import type { Message } from '../../src/domain/message';
import type { ServerConfig } from '../../src/domain/server-config';
import type { ThreadConfig } from '../../src/domain/thread-config';
import type { ToolCatalog } from '../../src/domain/tool-catalog';
import type { UserConfig } from '../../src/domain/user-config';
import { createChangeBus, type ChangeBus } from '../../src/platform/change-bus';
import type { Vault } from '../../src/storage/vault';
import { createMemoryVault } from './memory-vault';

export interface MemoryRecords {
  readonly now: () => number;
  readonly newId: () => string;
  readonly bus: ChangeBus;
  readonly vault: Vault;
  readonly profiles: Map<string, UserConfig>;
  /** Keyed by serverKey(profileId, serverId). */
  readonly servers: Map<string, ServerConfig & { readonly profileId: string }>;
  readonly threads: Map<string, ThreadConfig>;
  readonly messages: Map<string, Message>;
  readonly compactions: ContextCompaction[];
  /** Keyed by serverKey(profileId, serverId). */
  readonly catalogs: Map<string, ToolCatalog>;
  readonly attachments: Map<string, { readonly threadId: string; readonly blob: Blob }>;
}

/** Empty records over a new change bus (this tab only), with ids mem-1, mem-2, … */
export function createMemoryRecords(now: () => number): MemoryRecords {
  let counter = 0;
  const bus = createChangeBus(undefined);
  return {
    now,
    newId: () => `mem-${++counter}`,
    bus,
    vault: createMemoryVault(bus, now),
    profiles: new Map(),
    servers: new Map(),
    threads: new Map(),
    messages: new Map(),
    compactions: [],
    catalogs: new Map(),
    attachments: new Map(),
  };
}

/** A list answer with nothing skipped (memory holds no unreadable records). */
export const loaded = <T>(items: readonly T[]): Loaded<T> => ({ items: [...items], skipped: [] });

/** The key of a profile's server (and of its tool catalog). */
export const serverKey = (profileId: string, serverId: string) => `${profileId}/${serverId}`;

/** A thread's messages in the order they were appended. */
export const threadMessages = (records: MemoryRecords, threadId: string) =>
  [...records.messages.values()].filter((m) => m.threadId === threadId).sort((a, b) => a.seq - b.seq);
