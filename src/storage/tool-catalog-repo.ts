import type { Loaded } from '../domain/errors';
import { ToolCatalog } from '../domain/tool-catalog';
import { keyField, parseEach, parseForWrite, parseRecord, writeTransaction } from './records';
import type { StorageContext } from './storage-context';

/** The deferred tool catalog: each server's last tool list, per profile. */
export interface ToolCatalogRepo {
  get(profileId: string, serverId: string): Promise<ToolCatalog | undefined>;
  list(profileId: string): Promise<Loaded<ToolCatalog>>;
  set(catalog: ToolCatalog): Promise<void>;
  delete(profileId: string, serverId: string): Promise<void>;
}

export function createToolCatalogRepo({ db, bus }: StorageContext): ToolCatalogRepo {
  return {
    async get(profileId: string, serverId: string): Promise<ToolCatalog | undefined> {
      const record = await db.get('catalog', [profileId, serverId]);
      return record === undefined ? undefined : parseRecord(ToolCatalog, 'tool catalog', serverId, record);
    },

    async list(profileId: string): Promise<Loaded<ToolCatalog>> {
      return parseEach(
        ToolCatalog,
        'tool catalog',
        await db.getAllFromIndex('catalog', 'byProfile', profileId),
        keyField('serverId'),
      );
    },

    async set(catalog: ToolCatalog): Promise<void> {
      const valid = parseForWrite(ToolCatalog, catalog, 'Tool catalog'); // zod's interpreter is slow at 10k tools
      await writeTransaction(db, ['catalog'], (tx) => tx.objectStore('catalog').put(valid));
      bus.publish({ store: 'catalog', profileId: valid.profileId, key: valid.serverId });
    },

    async delete(profileId: string, serverId: string): Promise<void> {
      await writeTransaction(db, ['catalog'], (tx) => tx.objectStore('catalog').delete([profileId, serverId]));
      bus.publish({ store: 'catalog', profileId, key: serverId });
    },
  };
}
