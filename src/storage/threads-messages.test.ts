import { afterEach, describe, expect, it } from 'vitest';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import { NotFoundError, ValidationError } from '../domain/errors';

let opened: TestStorage | undefined;
afterEach(() => opened?.close());

async function setup() {
  let time = 1_000;
  opened = await openTestStorage({ now: () => (time += 10) });
  const profile = await opened.storage.profiles.ensureActive();
  return { ...opened, profile };
}

describe('threads', () => {
  it("lists a profile's threads, most recently active first, and not another profile's", async () => {
    const { storage, profile } = await setup();
    const other = await storage.profiles.create({ name: 'Other' });
    const first = await storage.threads.create(profile.id, { title: 'First' });
    const second = await storage.threads.create(profile.id, { title: 'Second' });
    await storage.threads.create(other.id, { title: 'Not mine' });
    expect((await storage.threads.list(profile.id)).items.map((t) => t.title)).toEqual(['Second', 'First']);
    await storage.messages.append(first.id, {
      role: 'user',
      blocks: [{ type: 'text', text: 'hi' }],
      status: 'complete',
    });
    expect((await storage.threads.list(profile.id)).items.map((t) => t.id)).toEqual([first.id, second.id]);
  });

  it('renames, sets the enabled servers, and rejects an empty title naming the field', async () => {
    const { storage, profile } = await setup();
    const thread = await storage.threads.create(profile.id);
    expect(thread.title).toBe('New thread');
    await storage.threads.rename(thread.id, 'Trip planning');
    await storage.threads.setEnabledServers(thread.id, ['weather', 'maps', 'weather']);
    expect(await storage.threads.getEnabledServers(thread.id)).toEqual(['weather', 'maps']);
    expect((await storage.threads.get(thread.id))?.title).toBe('Trip planning');
    const error = await storage.threads.rename(thread.id, '   ').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([{ path: 'title', message: 'A thread needs a title.' }]);
    expect((await storage.threads.get(thread.id))?.title).toBe('Trip planning');
  });

  it("a person's rename keeps the thread's place in the list; a title given with activity moves it up", async () => {
    const { storage, profile } = await setup();
    const older = await storage.threads.create(profile.id, { title: 'Older' });
    const newer = await storage.threads.create(profile.id, { title: 'Newer' });
    const order = async () => (await storage.threads.list(profile.id)).items.map((t) => t.title);
    const before = await order();
    await storage.threads.rename(older.id, 'Older, renamed', { isActivity: false });
    expect(await order()).toEqual(before.map((title) => (title === 'Older' ? 'Older, renamed' : title)));
    expect((await storage.threads.get(older.id))?.updatedAt).toBe(older.updatedAt);
    await storage.threads.rename(newer.id, 'Newer, titled by a send');
    expect((await storage.threads.get(newer.id))!.updatedAt).toBeGreaterThan(newer.updatedAt);
  });

  it('deletes a thread with all its messages and leaves other threads alone', async () => {
    const { storage, profile, db } = await setup();
    const doomed = await storage.threads.create(profile.id);
    const kept = await storage.threads.create(profile.id);
    for (const thread of [doomed, kept]) {
      await storage.messages.append(thread.id, {
        role: 'user',
        blocks: [{ type: 'text', text: 'q' }],
        status: 'complete',
      });
      await storage.messages.append(thread.id, {
        role: 'assistant',
        blocks: [{ type: 'text', text: 'a' }],
        status: 'complete',
      });
    }
    await storage.threads.delete(doomed.id);
    expect(await storage.threads.get(doomed.id)).toBeUndefined();
    expect(await db.count('messages')).toBe(2);
    expect((await storage.messages.list(kept.id)).items).toHaveLength(2);
  });
});

describe('a deletion waiting for Undo', () => {
  it('is left out of the list, comes back unmarked, and is removed with its messages once stale', async () => {
    const { storage, profile, db } = await setup();
    const older = await storage.threads.create(profile.id, { title: 'Older' });
    const newer = await storage.threads.create(profile.id, { title: 'Newer' });
    await storage.messages.append(older.id, {
      role: 'user',
      blocks: [{ type: 'text', text: 'q' }],
      status: 'complete',
    });
    const marked = await storage.threads.markDeleted(older.id, true);
    expect((await storage.threads.list(profile.id)).items.map((t) => t.title)).toEqual(['Newer']);
    // Undo: back in its place, first (its message is the latest activity).
    await storage.threads.markDeleted(older.id, false);
    expect((await storage.threads.list(profile.id)).items.map((t) => t.title)).toEqual(['Older', 'Newer']);
    // Marking is no activity of the person's: a thread deleted and brought back does not move up the list.
    await storage.threads.markDeleted(newer.id, true);
    await storage.threads.markDeleted(newer.id, false);
    expect((await storage.threads.list(profile.id)).items.map((t) => t.title)).toEqual(['Older', 'Newer']);
    await storage.threads.markDeleted(newer.id, true);
    expect((await storage.threads.list(profile.id)).items.map((t) => t.title)).toEqual(['Older']);
    await storage.threads.markDeleted(older.id, true);
    // Only deletions marked before the cutoff go; a later one (another tab's Undo may be on screen) stays hidden.
    const newerMark = (await storage.threads.get(newer.id))!.deletedAt!;
    expect(marked.deletedAt).toBeLessThan(newerMark);
    expect(await storage.threads.purgeDeleted(profile.id, newerMark)).toBe(0); // Older was marked again after Newer.
    expect(await storage.threads.purgeDeleted(profile.id, newerMark + 1)).toBe(1);
    expect(await storage.threads.get(newer.id)).toBeUndefined();
    expect(await storage.threads.get(older.id)).toBeDefined();
    expect(await storage.threads.purgeDeleted(profile.id, Number.MAX_SAFE_INTEGER)).toBe(1);
    expect(await db.count('threads')).toBe(0);
    expect(await db.count('messages')).toBe(0);
  });

  it('is kept when an Undo clears its mark after the start-up purge listed it', async () => {
    const { storage, profile } = await setup();
    const undone = await storage.threads.create(profile.id, { title: 'Undone' });
    const gone = await storage.threads.create(profile.id, { title: 'Gone' });
    await storage.threads.markDeleted(undone.id, true);
    await storage.threads.markDeleted(gone.id, true);
    const purging = storage.threads.purgeDeleted(profile.id, Number.MAX_SAFE_INTEGER);
    // Another tab's Undo, written after the purge read the list and before its deletions.
    await storage.threads.markDeleted(undone.id, false);
    expect(await purging).toBe(1);
    expect((await storage.threads.list(profile.id)).items.map((t) => t.title)).toEqual(['Undone']);
    expect(await storage.threads.get(gone.id)).toBeUndefined();
  });
});

describe('messages', () => {
  it('keeps messages in append order, also when appended concurrently', async () => {
    const { storage, profile } = await setup();
    const thread = await storage.threads.create(profile.id);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        storage.messages.append(thread.id, {
          role: 'user',
          blocks: [{ type: 'text', text: `m${i}` }],
          status: 'complete',
        }),
      ),
    );
    const { items } = await storage.messages.list(thread.id);
    expect(items.map((m) => m.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(new Set(items.map((m) => (m.blocks[0] as { text: string }).text)).size).toBe(10);
  });

  it('updates a streaming answer in place and marks it complete', async () => {
    const { storage, profile } = await setup();
    const thread = await storage.threads.create(profile.id);
    const draft = await storage.messages.append(thread.id, {
      role: 'assistant',
      blocks: [{ type: 'text', text: 'Hel' }],
      status: 'streaming',
    });
    await storage.messages.update(draft.id, { blocks: [{ type: 'text', text: 'Hello there' }] });
    const done = await storage.messages.update(draft.id, { status: 'complete' });
    expect(done).toMatchObject({ seq: 0, status: 'complete', blocks: [{ type: 'text', text: 'Hello there' }] });
    expect((await storage.messages.list(thread.id)).items).toEqual([done]);
  });

  it('refuses to append to a thread that does not exist', async () => {
    const { storage } = await setup();
    await expect(
      storage.messages.append('nope', { role: 'user', blocks: [], status: 'complete' }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('rejects a malformed message without writing anything', async () => {
    const { storage, profile, db } = await setup();
    const thread = await storage.threads.create(profile.id);
    const bad = { role: 'robot', blocks: [], status: 'complete' } as unknown as Parameters<
      typeof storage.messages.append
    >[1];
    await expect(storage.messages.append(thread.id, bad)).rejects.toThrow('role');
    expect(await db.count('messages')).toBe(0);
  });
});
