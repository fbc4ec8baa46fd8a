import { z } from 'zod';
import { CorruptRecordError, type Loaded } from '../domain/errors';
import { ToolCatalog, ToolDefinition } from '../domain/tool-catalog';
import { parseOrThrow } from '../domain/validation';
import { keyField, parseRecord, writeTransaction } from './records';
import type { StorageContext } from './storage-context';

/** The deferred tool catalog: each server's last tool list, per profile. */
export interface ToolCatalogRepo {
  /**
   * A server's stored catalog. A large one is read a page of tools at a time, with `pause` (which lets the page handle
   * input) between pages, so reading thousands of tools never holds the page for long.
   */
  get(profileId: string, serverId: string, pause?: () => Promise<void>): Promise<ToolCatalog | undefined>;
  list(profileId: string): Promise<Loaded<ToolCatalog>>;
  set(catalog: ToolCatalog): Promise<void>;
  delete(profileId: string, serverId: string): Promise<void>;
}

/**
 * Tools per stored page. A catalog is stored as pages of JSON text: IndexedDB hands a string over at once, where a
 * graph of 500 tools took 5-10 ms to take apart in one piece on the page; each page is then parsed and checked alone.
 */
const PAGE_TOOLS = 64;
const ToolPage = z.array(ToolDefinition);
const PagedCatalog = ToolCatalog.omit({ tools: true }).extend({ toolPages: z.array(z.string()) });

/** The record stored for `catalog`: its tools as pages of JSON text. */
function toRecord({ tools, ...head }: ToolCatalog): z.infer<typeof PagedCatalog> {
  const toolPages: string[] = [];
  for (let i = 0; i < tools.length; i += PAGE_TOOLS) toolPages.push(JSON.stringify(tools.slice(i, i + PAGE_TOOLS)));
  return { ...head, toolPages };
}

/** The catalog a stored record holds (paged, or one stored before pages, with its tools inline). */
async function fromRecord(record: unknown, pause?: () => Promise<void>): Promise<ToolCatalog> {
  const key = keyField('serverId')(record);
  const isPaged = typeof record === 'object' && record !== null && 'toolPages' in record;
  if (!isPaged) return parseRecord(ToolCatalog, 'tool catalog', key, record);
  const { toolPages, ...head } = parseRecord(PagedCatalog, 'tool catalog', key, record);
  const tools: ToolDefinition[] = [];
  for (const [index, page] of toolPages.entries()) {
    if (index > 0) await pause?.();
    let value: unknown;
    try {
      value = JSON.parse(page);
    } catch {
      throw new CorruptRecordError('tool catalog', key, [{ path: `toolPages.${index}`, message: 'is not JSON' }]);
    }
    tools.push(...parseRecord(ToolPage, 'tool catalog', key, value));
  }
  return { ...head, tools };
}

export function createToolCatalogRepo({ db, bus }: StorageContext): ToolCatalogRepo {
  return {
    async get(profileId: string, serverId: string, pause?: () => Promise<void>): Promise<ToolCatalog | undefined> {
      const record = await db.get('catalog', [profileId, serverId]);
      return record === undefined ? undefined : fromRecord(record, pause);
    },

    async list(profileId: string): Promise<Loaded<ToolCatalog>> {
      const loaded: Loaded<ToolCatalog> = { items: [], skipped: [] };
      for (const record of await db.getAllFromIndex('catalog', 'byProfile', profileId)) {
        try {
          loaded.items.push(await fromRecord(record));
        } catch (error) {
          if (error instanceof CorruptRecordError) loaded.skipped.push(error);
          else throw error;
        }
      }
      return loaded;
    },

    async set(catalog: ToolCatalog): Promise<void> {
      const valid = parseOrThrow(ToolCatalog, catalog, 'Tool catalog');
      const record = toRecord(valid);
      await writeTransaction(db, ['catalog'], (tx) => tx.objectStore('catalog').put(record));
      bus.publish({ store: 'catalog', profileId: valid.profileId, key: valid.serverId });
    },

    async delete(profileId: string, serverId: string): Promise<void> {
      await writeTransaction(db, ['catalog'], (tx) => tx.objectStore('catalog').delete([profileId, serverId]));
      bus.publish({ store: 'catalog', profileId, key: serverId });
    },
  };
}
