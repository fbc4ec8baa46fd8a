import { afterEach, describe, expect, it } from 'vitest';
import { openTestStorage, type TestStorage } from '../../test/fakes/test-storage';
import { ValidationError } from '../domain/errors';

let opened: TestStorage | undefined;
afterEach(() => opened?.close());

const files = { id: 'files', name: 'Files', url: 'https://files.example/mcp' };
const notes = { id: 'notes', name: 'Notes', url: 'https://notes.example/mcp' };
const approval = (origin: string) => ({ hash: 'h', origin, authKind: 'none' as const });

/** A profile with Files and Notes, both always allowed, both on (with a loaded tool each) in one thread. */
async function trusted() {
  opened = await openTestStorage();
  const { storage } = opened;
  const profile = await storage.profiles.ensureActive();
  await storage.profiles.saveServer(profile.id, files);
  await storage.profiles.saveServer(profile.id, notes);
  await storage.profiles.update(profile.id, (p) => ({
    ...p,
    defaultServerIds: ['files', 'notes'],
    alwaysAllow: {
      'files/delete': approval('https://files.example'),
      'notes/write': approval('https://notes.example'),
    },
  }));
  const thread = await storage.threads.create(profile.id, { enabledServerIds: ['files', 'notes'] });
  await storage.threads.update(thread.id, () => ({
    approvals: { 'files/move': approval('https://files.example'), 'notes/read': approval('https://notes.example') },
    loadedTools: [
      { serverId: 'files', toolName: 'move', lastUsedAt: 1 },
      { serverId: 'notes', toolName: 'read', lastUsedAt: 1 },
    ],
  }));
  return { storage, profileId: profile.id, threadId: thread.id };
}

describe("forgetting a server's trust in storage", () => {
  it('removing a server drops its approvals and thread places, keeps the other server’s, and retires its id with its origin', async () => {
    const { storage, profileId, threadId } = await trusted();
    const updatedAt = (await storage.threads.get(threadId))!.updatedAt;
    await storage.profiles.removeServer(profileId, 'files');
    expect(await storage.profiles.get(profileId)).toMatchObject({
      defaultServerIds: ['notes'],
      alwaysAllow: { 'notes/write': approval('https://notes.example') },
      retiredServerIds: { files: 'https://files.example' },
    });
    const thread = (await storage.threads.get(threadId))!;
    expect(thread).toMatchObject({
      enabledServerIds: ['notes'],
      approvals: { 'notes/read': approval('https://notes.example') },
      loadedTools: [{ serverId: 'notes', toolName: 'read', lastUsedAt: 1 }],
      updatedAt, // no activity in the thread: its place in the list stays
    });
  });

  it('a server saved at another origin loses its sampling "Allow for this thread"; another server keeps its own', async () => {
    const { storage, profileId, threadId } = await trusted();
    await storage.threads.update(threadId, () => ({
      samplingAllowed: { files: { origin: 'https://files.example' }, notes: { origin: 'https://notes.example' } },
    }));
    await storage.profiles.saveServer(profileId, { ...files, url: 'https://files.example/v2/mcp' });
    expect(Object.keys((await storage.threads.get(threadId))!.samplingAllowed ?? {})).toEqual(['files', 'notes']);
    await storage.profiles.saveServer(profileId, { ...files, url: 'https://elsewhere.example/mcp' });
    expect((await storage.threads.get(threadId))!.samplingAllowed).toEqual({
      notes: { origin: 'https://notes.example' },
    });
  });

  it('a new server may take a retired id only at the origin it had', async () => {
    const { storage, profileId } = await trusted();
    await storage.profiles.removeServer(profileId, 'files');
    const error = await storage.profiles
      .saveServer(profileId, { ...files, url: 'https://evil.example/mcp' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]).toMatchObject({ path: 'id' });
    expect((error as ValidationError).message).toContain('belonged to a removed server at https://files.example');
    expect((await storage.profiles.listServers(profileId)).items.map((s) => s.id)).toEqual(['notes']);
    await storage.profiles.saveServer(profileId, { ...files, url: 'https://files.example/other' });
  });

  it('another auth kind drops the approvals but not the thread places; another path at the same origin drops nothing', async () => {
    const { storage, profileId, threadId } = await trusted();
    await storage.profiles.saveServer(profileId, { ...files, url: 'https://files.example/v2/mcp' });
    expect(Object.keys((await storage.profiles.get(profileId))!.alwaysAllow)).toEqual(['files/delete', 'notes/write']);
    await storage.profiles.saveServer(profileId, { ...files, auth: { kind: 'bearer' } });
    expect(Object.keys((await storage.profiles.get(profileId))!.alwaysAllow)).toEqual(['notes/write']);
    const thread = (await storage.threads.get(threadId))!;
    expect(Object.keys(thread.approvals)).toEqual(['notes/read']);
    expect(thread.enabledServerIds).toEqual(['files', 'notes']);
  });

  it('an app server the deployer moved to another origin, or took away, loses its approvals, thread places and tokens', async () => {
    const { storage, profileId, threadId } = await trusted();
    // Here "files" and "notes" stand for the deployer's servers: the same records, as app-config.json names them.
    const app = (files: string, notes?: string) => [
      { id: 'files', trust: { origin: files, authKind: 'none' as const } },
      ...(notes ? [{ id: 'notes', trust: { origin: notes, authKind: 'none' as const } }] : []),
    ];
    // The person signed in to both: their tokens are in the vault under each server.
    const token = (owner: string) => ({ profileId, owner, slot: 'oauth-tokens' });
    await storage.vault.put(token('files'), 'files-token');
    await storage.vault.put(token('notes'), 'notes-token');
    await storage.profiles.reconcileAppServers(profileId, app('https://files.example', 'https://notes.example'));
    expect((await storage.threads.get(threadId))?.enabledServerIds).toEqual(['files', 'notes']); // first sight: kept
    expect(await storage.vault.get(token('files'))).toBe('files-token');
    await storage.profiles.reconcileAppServers(profileId, app('https://elsewhere.example', 'https://notes.example'));
    expect(await storage.threads.get(threadId)).toMatchObject({
      enabledServerIds: ['notes'],
      approvals: { 'notes/read': approval('https://notes.example') },
    });
    expect(Object.keys((await storage.profiles.get(profileId))!.alwaysAllow)).toEqual(['notes/write']);
    // The token the old origin issued is not sent to the new one; the unmoved server keeps its own.
    expect(await storage.vault.get(token('files'))).toBeUndefined();
    expect(await storage.vault.get(token('notes'))).toBe('notes-token');
    await storage.profiles.reconcileAppServers(profileId, app('https://elsewhere.example'));
    expect(await storage.threads.get(threadId)).toMatchObject({ enabledServerIds: [], approvals: {} });
    expect(await storage.vault.get(token('notes'))).toBeUndefined();
    expect((await storage.profiles.get(profileId))?.retiredServerIds).toEqual({ notes: 'https://notes.example' });
  });
});
