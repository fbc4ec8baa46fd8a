import type { ChangeBus } from '../platform/change-bus';
import type { AppDatabase } from '../platform/database-schema';
import type { Cipher } from '../platform/web-crypto';
import { createAppConfigRepo } from './app-config-repo';
import { createApprovalNoticesRepo } from './approval-notices-repo';
import { createMessagesRepo } from './messages-repo';
import { createProfilesRepo } from './profiles-repo';
import { createThreadsRepo } from './threads-repo';
import { createToolCatalogRepo } from './tool-catalog-repo';
import { createUsageRepo } from './usage-repo';
import { createVault } from './vault';

export interface StorageDeps {
  readonly db: AppDatabase;
  readonly bus: ChangeBus;
  readonly cipher: Cipher;
  readonly now: () => number;
  readonly newId: () => string;
}

/** Every repository over one open database. */
export function createStorage(deps: StorageDeps) {
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
    catalog: createToolCatalogRepo(deps),
    usage: createUsageRepo(deps),
    approvalNotices: createApprovalNoticesRepo(deps),
    vault,
    changes: deps.bus,
  };
}
export type Storage = ReturnType<typeof createStorage>;
