import { afterEach, describe, expect, it } from 'vitest';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import { CorruptRecordError } from '../domain/errors';
import type { ToolCatalog } from '../domain/tool-catalog';

let opened: TestStorage | undefined;
afterEach(() => opened?.close());

async function setup() {
  opened = await openTestStorage();
  const profile = await opened.storage.profiles.ensureActive();
  return { ...opened, profile };
}

const catalogOf = (profileId: string, serverId: string, count: number): ToolCatalog => ({
  profileId,
  serverId,
  hash: `hash-${serverId}`,
  fetchedAt: 7,
  cuts: ['big: description cut from 9,000 to 4,000 characters'],
  instructions: 'Use search first.',
  tools: Array.from({ length: count }, (_, i) => ({
    name: `tool_${i}`,
    ...(i % 2 ? { description: `Finds things, “${i}” — 東京` } : {}),
    inputSchema: { type: 'object' as const, properties: { q: { type: 'string', pattern: '^\\\\d+$' } } },
    ...(i === 3
      ? { annotations: { readOnlyHint: true }, outputSchema: { type: 'object' }, 'x-vendor': [1, null] }
      : {}),
  })),
});

describe('the tool catalog', () => {
  it('gives back a large catalog as it was stored, a page at a time, letting the page in between pages', async () => {
    const { storage, profile } = await setup();
    const catalog = catalogOf(profile.id, 'many', 150);
    await storage.catalog.set(catalog);
    let pauses = 0;
    expect(await storage.catalog.get(profile.id, 'many', async () => void pauses++)).toEqual(catalog);
    expect(pauses).toBe(2); // 150 tools: three pages
    expect(await storage.catalog.get(profile.id, 'absent')).toBeUndefined();
    const empty = catalogOf(profile.id, 'none', 0);
    await storage.catalog.set(empty);
    expect((await storage.catalog.list(profile.id)).items).toEqual([catalog, empty]);
  });

  it('still reads a catalog stored before pages, with its tools inline', async () => {
    const { storage, profile, db } = await setup();
    const catalog = catalogOf(profile.id, 'older', 5);
    await db.put('catalog', catalog);
    expect(await storage.catalog.get(profile.id, 'older', async () => undefined)).toEqual(catalog);
  });

  it('skips a catalog with a page that is not JSON or not tools, saying which, and keeps the others', async () => {
    const { storage, profile, db } = await setup();
    await storage.catalog.set(catalogOf(profile.id, 'good', 3));
    await storage.catalog.set(catalogOf(profile.id, 'torn', 100));
    await storage.catalog.set(catalogOf(profile.id, 'odd', 3));
    const torn = (await db.get('catalog', [profile.id, 'torn']))!;
    await db.put('catalog', { ...torn, toolPages: [(torn.toolPages as string[])[0]!, '[{"name":'] });
    const odd = (await db.get('catalog', [profile.id, 'odd']))!;
    await db.put('catalog', { ...odd, toolPages: ['[{"name":"no schema"}]'] });
    const error = await storage.catalog.get(profile.id, 'torn').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptRecordError);
    expect((error as CorruptRecordError).message).toBe(
      'Stored tool catalog record "torn" is unreadable (toolPages.1: is not JSON); it was skipped.',
    );
    await expect(storage.catalog.get(profile.id, 'odd')).rejects.toThrow(/record "odd" is unreadable \(0\.inputSchema/);
    const { items, skipped } = await storage.catalog.list(profile.id);
    expect(items.map((c) => c.serverId)).toEqual(['good']);
    expect(skipped.map((s) => s.key).sort()).toEqual(['odd', 'torn']);
  });
});
