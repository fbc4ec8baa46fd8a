import { AppConfig } from '../domain/app-config';
import { parseRecord, writeTransaction } from './records';
import type { StorageContext } from './storage-context';

const KEY = 'current';

/** The last app config that loaded, kept so the app starts with its servers when offline. */
export interface AppConfigRepo {
  get(): Promise<AppConfig | undefined>;
  set(config: AppConfig): Promise<void>;
}

export function createAppConfigRepo({ db, bus, now }: StorageContext): AppConfigRepo {
  return {
    async get(): Promise<AppConfig | undefined> {
      const record = await db.get('appConfig', KEY);
      return record === undefined ? undefined : parseRecord(AppConfig, 'app config', KEY, record.config);
    },
    async set(config: AppConfig): Promise<void> {
      const valid = parseRecord(AppConfig, 'app config', KEY, config);
      await writeTransaction(db, ['appConfig'], (tx) =>
        tx.objectStore('appConfig').put({ key: KEY, config: valid, loadedAt: now() }),
      );
      bus.publish({ store: 'appConfig' });
    },
  };
}
