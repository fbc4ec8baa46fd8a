import { afterEach, describe, expect, it } from 'vitest';
import { failObjectStore } from '../../test/fakes/idb-faults';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import { CorruptRecordError, StorageQuotaError } from '../domain/errors';
import { Message } from '../domain/message';
import { schemaGuard } from '../domain/schema-guard';

let opened: TestStorage | undefined;
afterEach(() => opened?.close());

describe('reading records that do not match the schema', () => {
  it('skips a corrupted thread with a typed error naming it, and loads the rest', async () => {
    opened = await openTestStorage();
    const { storage, db } = opened;
    const profile = await storage.profiles.ensureActive();
    const good = await storage.threads.create(profile.id, { title: 'Good' });
    await db.put('threads', { id: 'broken', profileId: profile.id, updatedAt: 5, title: 42 });
    const { items, skipped } = await storage.threads.list(profile.id);
    expect(items.map((t) => t.id)).toEqual([good.id]);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toBeInstanceOf(CorruptRecordError);
    expect(skipped[0]).toMatchObject({ store: 'thread', key: 'broken' });
    expect(skipped[0]?.message).toContain('title');
    await expect(storage.threads.get('broken')).rejects.toBeInstanceOf(CorruptRecordError);
  });

  it('skips a corrupted message and a corrupted server the same way', async () => {
    opened = await openTestStorage();
    const { storage, db } = opened;
    const profile = await storage.profiles.ensureActive();
    const thread = await storage.threads.create(profile.id);
    await storage.messages.append(thread.id, {
      role: 'user',
      blocks: [{ type: 'text', text: 'kept' }],
      status: 'complete',
    });
    await db.put('messages', { id: 'bad', threadId: thread.id, seq: 7, blocks: 'nope' });
    await storage.profiles.saveServer(profile.id, { id: 'ok', name: 'OK', url: 'https://ok.example/mcp' });
    await db.put('servers', { profileId: profile.id, id: 'evil', name: 'Evil', url: 'javascript:alert(1)' });
    const messages = await storage.messages.list(thread.id);
    expect(messages.items).toHaveLength(1);
    expect(messages.skipped.map((e) => e.key)).toEqual(['bad']);
    const servers = await storage.profiles.listServers(profile.id);
    expect(servers.items.map((s) => s.id)).toEqual(['ok']);
    expect(servers.skipped[0]?.issues[0]?.path).toBe('url');
  });
});

describe('reading a long thread', () => {
  it('loads messages the app wrote as they are, without zod, and still reports one that was tampered with', async () => {
    opened = await openTestStorage();
    const { storage, db } = opened;
    const profile = await storage.profiles.ensureActive();
    const thread = await storage.threads.create(profile.id);
    const answer = await storage.messages.append(thread.id, {
      role: 'assistant',
      status: 'complete',
      blocks: [
        { type: 'text', text: 'Asking the tool.' },
        { type: 'tool_use', id: 'toolu_1', name: 'echo', input: { message: 'hi' } },
      ],
      trace: [
        {
          kind: 'tool-call',
          toolUseId: 'toolu_1',
          tool: 'echo',
          arguments: { message: 'hi' },
          resultSummary: 'Echo: hi',
          isError: false,
          durationMs: 3,
        },
      ],
    });
    await storage.messages.append(thread.id, {
      role: 'user',
      status: 'complete',
      blocks: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'Echo: hi' }] }],
    });
    // The fast path: every record the app wrote passes the Message schema's guard, so no record pays for zod's
    // interpreter (the page's CSP forbids zod's compiled parsers). Adding a refinement to Message would end this.
    const stored = await db.getAll('messages');
    expect(stored.every((record) => schemaGuard(Message)(record))).toBe(true);
    expect((await storage.messages.list(thread.id)).items).toEqual([answer, expect.objectContaining({ seq: 1 })]);

    // Tampered in place, the same records go through zod: a bad one is reported, a stray key is dropped.
    await db.put('messages', { ...stored[0]!, seq: 0, blocks: [{ type: 'tool_use', id: 'toolu_1', name: 'echo' }] });
    await db.put('messages', { ...stored[1]!, injected: '<img src=x onerror=alert(1)>' });
    const { items, skipped } = await storage.messages.list(thread.id);
    expect(skipped.map((error) => [error.key, error.issues[0]?.path])).toEqual([[answer.id, 'blocks.0.input']]);
    expect(items).toHaveLength(1);
    expect(items[0]).not.toHaveProperty('injected');
  });
});

describe('writes', () => {
  it('turns QuotaExceededError into a typed error and leaves nothing half-written', async () => {
    opened = await openTestStorage();
    const { storage, db } = opened;
    const profile = await storage.profiles.ensureActive();
    const thread = await storage.threads.create(profile.id, { title: 'Before' });
    await storage.messages.append(thread.id, {
      role: 'user',
      blocks: [{ type: 'text', text: 'one' }],
      status: 'complete',
    });
    const threadBefore = await db.get('threads', thread.id);

    // Fault injection at the browser boundary: the message store's add fails the way a full disk does.
    const restore = failObjectStore(
      'messages',
      'add',
      new DOMException('The quota has been exceeded.', 'QuotaExceededError'),
    );
    try {
      const error = await storage.messages
        .append(thread.id, { role: 'user', blocks: [{ type: 'text', text: 'two' }], status: 'complete' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageQuotaError);
      expect((error as Error).message).toContain('Browser storage is full');
    } finally {
      restore();
    }
    expect(await db.count('messages')).toBe(1);
    expect(await db.get('threads', thread.id)).toEqual(threadBefore);
  });

  it('rolls back a multi-store delete when one step fails', async () => {
    opened = await openTestStorage();
    const { storage, db } = opened;
    const profile = await storage.profiles.ensureActive();
    const thread = await storage.threads.create(profile.id);
    await storage.messages.append(thread.id, {
      role: 'user',
      blocks: [{ type: 'text', text: 'x' }],
      status: 'complete',
    });
    const restore = failObjectStore('threads', 'delete', new DOMException('Disk failure', 'UnknownError'));
    try {
      await expect(storage.threads.delete(thread.id)).rejects.toThrow('Disk failure');
    } finally {
      restore();
    }
    expect(await db.count('messages')).toBe(1);
    expect(await storage.threads.get(thread.id)).toBeDefined();
  });
});
