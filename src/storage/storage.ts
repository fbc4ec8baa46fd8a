import type { Logger } from '../domain/logger';
import type { BackgroundSlices } from '../platform/background-slices';
import type { ChangeBus } from '../platform/change-bus';
import type { AppDatabase } from '../platform/database-schema';
import type { Cipher } from '../platform/web-crypto';
import { createAppConfigRepo, type AppConfigRepo } from './app-config-repo';
import { createAttachmentsRepo, type AttachmentsRepo } from './attachments-repo';
import { createApprovalNoticesRepo, type ApprovalNoticesRepo } from './approval-notices-repo';
import { createCompactionsRepo, type CompactionsRepo } from './compactions-repo';
import { createDraftAttachmentsRepo, type DraftAttachmentsRepo } from './draft-attachments-repo';
import { createDraftsRepo, type DraftsRepo } from './drafts-repo';
import { createMessagesRepo, type MessagesRepo } from './messages-repo';
import { createProfilesRepo, type ProfilesRepo } from './profiles-repo';
import { createThreadArchiveRepo, type ThreadArchiveRepo } from './thread-archive-repo';
import { createThreadsRepo, type ThreadsRepo } from './threads-repo';
import { createToolCatalogRepo, type ToolCatalogRepo } from './tool-catalog-repo';
import { createUsageRepo, type UsageRepo } from './usage-repo';
import { createVault, type Vault } from './vault';

export interface StorageDeps {
  readonly db: AppDatabase;
  readonly bus: ChangeBus;
  readonly cipher: Cipher;
  readonly now: () => number;
  readonly newId: () => string;
  readonly logger?: Logger;
  /** The page's background scheduler (see StorageContext): made once by the composition root. */
  readonly slices: BackgroundSlices;
}

/** Every repository over one open database, and the bus that announces their writes to other tabs. */
export interface Storage {
  readonly appConfig: AppConfigRepo;
  readonly profiles: ProfilesRepo;
  readonly threads: ThreadsRepo;
  readonly messages: MessagesRepo;
  readonly catalog: ToolCatalogRepo;
  /** What the profile's model calls used, for the spending limits. */
  readonly usage: UsageRepo;
  /** Where threads' model context was compacted (the messages themselves are never touched). */
  readonly compactions: CompactionsRepo;
  readonly approvalNotices: ApprovalNoticesRepo;
  /** The bytes of message attachments (blobs), named by the messages that carry them. */
  readonly attachments: AttachmentsRepo;
  /** Each thread's unsent text, kept across reloads. */
  readonly drafts: DraftsRepo;
  /** Each thread's unsent attachments (files, resources), kept across reloads like its text. */
  readonly draftAttachments: DraftAttachmentsRepo;
  /** Whole threads read and stored for the threads backup. */
  readonly threadArchive: ThreadArchiveRepo;
  readonly vault: Vault;
  readonly changes: ChangeBus;
  /** The background scheduler storage's own work uses; start-up runs its background work in the same one. */
  readonly slices: BackgroundSlices;
}

export function createStorage(deps: StorageDeps): Storage {
  const vault = createVault(deps, deps.cipher);
  const profiles = createProfilesRepo(deps);
  return {
    appConfig: createAppConfigRepo(deps),
    profiles: {
      ...profiles,
      /** Deleting a profile also drops its cached vault key. */
      async delete(id: string) {
        await profiles.delete(id);
        vault.forgetKey(id);
      },
    },
    threads: createThreadsRepo(deps),
    messages: createMessagesRepo(deps),
    compactions: createCompactionsRepo(deps),
    catalog: createToolCatalogRepo(deps),
    usage: createUsageRepo(deps),
    approvalNotices: createApprovalNoticesRepo(deps),
    attachments: createAttachmentsRepo(deps),
    drafts: createDraftsRepo(deps),
    draftAttachments: createDraftAttachmentsRepo(deps),
    threadArchive: createThreadArchiveRepo(deps),
    vault,
    changes: deps.bus,
    slices: deps.slices,
  };
}
