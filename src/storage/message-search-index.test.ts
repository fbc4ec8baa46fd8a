import { afterEach, describe, expect, it } from 'vitest';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import { selectBranch } from '../domain/branches';
import type { NewMessage } from '../domain/message';
import { latestMatch } from '../domain/message-text';
import { createBackgroundSlices } from '../platform/background-slices';
import { createMessageSearchIndex } from './message-search-index';

let opened: TestStorage | undefined;
afterEach(() => opened?.close());

const say = (role: 'user' | 'assistant', text: string): NewMessage => ({
  role,
  status: 'complete',
  blocks: [{ type: 'text', text }],
});

/** Threads like a person's: a long one (more than a page of records), an edited one, tool calls, a corrupt record. */
async function profile() {
  opened = await openTestStorage();
  const { storage, db } = opened;
  const profile = await storage.profiles.ensureActive();
  const long = await storage.threads.create(profile.id, { title: 'Long' });
  for (let i = 0; i < 260; i++)
    await storage.messages.append(long.id, say(i % 2 ? 'assistant' : 'user', `Step ${i}: the **oak** table ${i}`));
  const edited = await storage.threads.create(profile.id, { title: 'Edited' });
  const asked = await storage.messages.append(edited.id, say('user', 'Paint the oak table?'));
  await storage.messages.append(edited.id, say('assistant', 'Use oil on oak.'));
  await storage.messages.append(edited.id, say('user', 'Paint the pine table?'), asked.parentId);
  const tools = await storage.threads.create(profile.id, { title: 'Tools' });
  await storage.messages.append(tools.id, {
    role: 'assistant',
    status: 'complete',
    blocks: [{ type: 'tool_use', id: 'toolu_1', name: 'mcp__wood__find', input: { wood: 'oak' } }],
  });
  const broken = await storage.messages.append(tools.id, say('assistant', 'Oak it is.'));
  await db.put('messages', { ...broken, blocks: 'not blocks' });
  await storage.messages.append(tools.id, say('user', 'And the table?'));
  return { storage, db, ids: [long.id, edited.id, tools.id] };
}

/** The search as it was before the index: every thread's records read and scanned. */
async function scan(storage: TestStorage['storage'], db: TestStorage['db'], ids: readonly string[], needle: string) {
  const found = new Map<string, unknown>();
  for (const id of ids) {
    const thread = (await db.get('threads', id)) as { activeLeafId?: string } | undefined;
    const records = await db.getAllFromIndex('messages', 'byThreadSeq', IDBKeyRange.bound([id, 0], [id, Infinity]));
    const match = latestMatch(selectBranch(records, thread?.activeLeafId).path, needle);
    if (match) found.set(id, match);
  }
  return found;
}

describe('the message search index', () => {
  it('finds what reading every message finds, whether filled ahead or while the search waits', async () => {
    const { storage, db, ids } = await profile();
    const needles = ['oak', 'OAK   table', 'step 259', 'step 3:', 'pine', 'oak it is', 'wood', 'nothing here', '**'];
    const cold = createMessageSearchIndex({ db, bus: opened!.bus, slices: createBackgroundSlices(1) });
    for (const needle of needles) expect(await cold.search(ids, needle)).toEqual(await scan(storage, db, ids, needle));
    const ahead = createMessageSearchIndex({ db, bus: opened!.bus, slices: createBackgroundSlices(1) });
    ahead.prepare(ids);
    for (const needle of needles) expect(await ahead.search(ids, needle)).toEqual(await scan(storage, db, ids, needle));
    // Only the shown branches' text is kept, and only messages with text.
    expect(ahead.size()).toMatchObject({ threads: 3, messages: 260 + 1 + 1 });
  });

  it('past its size limit keeps less, and still finds the same', async () => {
    const { storage, db, ids } = await profile();
    const small = createMessageSearchIndex({ db, bus: opened!.bus, slices: createBackgroundSlices(), maxChars: 100 });
    for (const needle of ['oak', 'pine', 'step 17'])
      expect(await small.search(ids, needle)).toEqual(await scan(storage, db, ids, needle));
    expect(small.size().chars).toBeLessThanOrEqual(100);
  });
});
