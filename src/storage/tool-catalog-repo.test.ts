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
  it("gives back what was stored, unknown fields kept, and lists a profile's catalogs", async () => {
    const { storage, profile } = await setup();
    const catalog = catalogOf(profile.id, 'many', 150);
    await storage.catalog.set(catalog);
    expect(await storage.catalog.get(profile.id, 'many')).toEqual(catalog);
    expect(await storage.catalog.get(profile.id, 'absent')).toBeUndefined();
    const empty = catalogOf(profile.id, 'none', 0);
    await storage.catalog.set(empty);
    expect((await storage.catalog.list(profile.id)).items).toEqual([catalog, empty]);
  });

  it('refuses to store a catalog that is not one, naming the field, and stores one without a field it does not know', async () => {
    const { storage, profile } = await setup();
    const catalog = catalogOf(profile.id, 'checked', 2);
    const bad = { ...catalog, tools: [...catalog.tools, { name: '' }] } as unknown as ToolCatalog;
    await expect(storage.catalog.set(bad)).rejects.toThrow(/Tool catalog.*tools\.2\.name/);
    expect(await storage.catalog.get(profile.id, 'checked')).toBeUndefined();
    await storage.catalog.set({ ...catalog, stray: 1 } as ToolCatalog);
    expect(await storage.catalog.get(profile.id, 'checked')).toEqual(catalog);
  });

  it('skips a stored catalog that is unreadable, saying which, and keeps the others', async () => {
    const { storage, profile, db } = await setup();
    await storage.catalog.set(catalogOf(profile.id, 'good', 3));
    await db.put('catalog', { ...catalogOf(profile.id, 'odd', 3), tools: [{ name: 'no schema' }] });
    const error = await storage.catalog.get(profile.id, 'odd').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptRecordError);
    expect((error as CorruptRecordError).message).toMatch(/record "odd" is unreadable \(tools\.0\.inputSchema/);
    const { items, skipped } = await storage.catalog.list(profile.id);
    expect(items.map((c) => c.serverId)).toEqual(['good']);
    expect(skipped.map((s) => s.key)).toEqual(['odd']);
  });
});
