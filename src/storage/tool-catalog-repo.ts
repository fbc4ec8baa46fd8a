import type { Loaded } from '../domain/errors';
import { schemaGuard } from '../domain/schema-guard';
import { ToolCatalog } from '../domain/tool-catalog';
import { parseOrThrow } from '../domain/validation';
import { keyField, parseEach, parseRecord, writeTransaction } from './records';
import type { StorageContext } from './storage-context';

/** The deferred tool catalog: each server's last tool list, per profile. */
export interface ToolCatalogRepo {
  get(profileId: string, serverId: string): Promise<ToolCatalog | undefined>;
  list(profileId: string): Promise<Loaded<ToolCatalog>>;
  set(catalog: ToolCatalog): Promise<void>;
  delete(profileId: string, serverId: string): Promise<void>;
}

/** A catalog as valid as `ToolCatalog` says; the guard's fast check first (zod's interpreter is slow at 10k tools). */
function validCatalog(catalog: ToolCatalog): ToolCatalog {
  return schemaGuard(ToolCatalog)(catalog) ? catalog : parseOrThrow(ToolCatalog, catalog, 'Tool catalog');
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
      const valid = validCatalog(catalog);
      await writeTransaction(db, ['catalog'], (tx) => tx.objectStore('catalog').put(valid));
      bus.publish({ store: 'catalog', profileId: valid.profileId, key: valid.serverId });
    },

    async delete(profileId: string, serverId: string): Promise<void> {
      await writeTransaction(db, ['catalog'], (tx) => tx.objectStore('catalog').delete([profileId, serverId]));
      bus.publish({ store: 'catalog', profileId, key: serverId });
    },
  };
}
