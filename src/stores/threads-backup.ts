import { selectBranch } from '../domain/branches';
import type { ImportProblem } from '../domain/config-import';
import { describeError, StorageQuotaError } from '../domain/errors';
import { backedUpThread, MAX_THREADS_FILE_BYTES, threadsFileHead } from '../domain/threads-backup-file';
import { readThreadsFile, settingsHere, threadSubject, type ImportableThread } from '../domain/threads-backup-import';
import type { Storage } from '../storage/storage';
import { previewOf } from './thread-lifecycle';
import type { AddedThread, ThreadRecords } from '../storage/thread-archive-repo';

export interface ThreadsBackupDeps {
  readonly storage: Storage;
  readonly profileId: string;
  readonly now: () => number;
  /** The servers this profile has, and its servers-per-thread limit: an imported thread turns on only those. */
  readonly serversHere?: () => Promise<{ readonly ids: ReadonlySet<string>; readonly max?: number }>;
}

/** One file of a backup, in pieces (one per thread: a large backup is never one string). */
export interface BackupFile {
  readonly name: string;
  readonly type: string;
  readonly parts: readonly string[];
}

/** A backup to hand to the person's downloads: one file, or several when one would be larger than an import reads. */
export interface ExportedBackup {
  readonly files: readonly BackupFile[];
  /** Threads in the files. */
  readonly threads: number;
  /** Stored records that could not be read, left out of the file. */
  readonly skipped: number;
  /** Titles of threads left out: each alone is larger than an import reads. */
  readonly tooLarge: readonly string[];
}

/** What an import did: refused as a whole (`message`), or each thread imported or not with why; `stopped`: why it ended early. */
export type ThreadsImportReport =
  | { readonly ok: false; readonly message: string }
  | {
      readonly ok: true;
      readonly imported: readonly string[];
      readonly rejected: readonly ImportProblem[];
      readonly stopped?: string;
    };

/**
 * Every thread of the profile but those waiting for Undo of a delete, with all their branches, compactions and
 * attachments' bytes. No secret: threads hold none, and their approvals and apps' words are left out.
 */
export async function exportAllThreads(
  deps: ThreadsBackupDeps,
  maxFileBytes = MAX_THREADS_FILE_BYTES,
): Promise<ExportedBackup> {
  const { storage, profileId } = deps;
  const exportedAt = new Date(deps.now());
  const { items: threads, skipped: skippedThreads } = await storage.threads.list(profileId);
  const head = threadsFileHead(exportedAt);
  const tail = ']}\n';
  // Files an import can read each: a thread that would make one larger starts the next.
  const files: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  const tooLarge: string[] = [];
  let skipped = skippedThreads.length;
  let count = 0;
  for (const { id } of threads) {
    const records = await storage.threadArchive.read(id);
    if (!records || records.thread.deletedAt !== undefined) continue; // Deleted meanwhile.
    skipped += records.skipped;
    const json = JSON.stringify(entryOf(records));
    const size = utf8Length(json) + 1; // With its comma.
    if (utf8Length(head) + size + tail.length > maxFileBytes) {
      tooLarge.push(records.thread.title);
      continue;
    }
    if (current.length > 0 && bytes + size + tail.length > maxFileBytes) {
      files.push(current);
      current = [];
    }
    if (current.length === 0) {
      current.push(head);
      bytes = utf8Length(head);
    }
    current.push(`${current.length > 1 ? ',' : ''}${json}`);
    bytes += size;
    count++;
  }
  if (current.length > 0 || files.length === 0) files.push(current.length > 0 ? current : [head]);
  const date = exportedAt.toISOString().slice(0, 10);
  return {
    files: files.map((parts, i) => ({
      name:
        files.length === 1
          ? `mcp-agent-threads-${date}.json`
          : `mcp-agent-threads-${date}-part-${i + 1}-of-${files.length}.json`,
      type: 'application/json',
      parts: [...parts, tail],
    })),
    threads: count,
    skipped,
    tooLarge,
  };
}

/** A thread's entry in the file: attachments named as their messages name them. */
function entryOf(records: ThreadRecords) {
  const refs = new Map(records.messages.flatMap((m) => m.attachments ?? []).map((ref) => [ref.id, ref]));
  const attachments = records.attachments.map(({ id, mimeType, data }) => ({
    id,
    name: refs.get(id)?.name ?? id,
    mimeType: refs.get(id)?.mimeType ?? mimeType,
    data,
  }));
  return backedUpThread(records.thread, {
    messages: [...records.messages],
    compactions: [...records.compactions],
    attachments,
  });
}

/** Bytes of a string in UTF-8, as the file will hold it (counted without encoding a copy). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4; // A surrogate pair: one character of four bytes.
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Imports the threads of a backup (or of one thread's export) into the profile, each in its own transaction. A thread
 * already here is skipped; a broken one is reported and skipped; a full disk stops the import with what was done.
 */
export async function importThreads(deps: ThreadsBackupDeps, text: string): Promise<ThreadsImportReport> {
  const read = readThreadsFile(text);
  if (!read.ok) return read;
  const imported: string[] = [];
  const rejected: ImportProblem[] = [...read.rejected];
  let stopped: string | undefined;
  const servers = (await deps.serversHere?.()) ?? { ids: new Set<string>() };
  for (const [index, fromFile] of read.threads.entries()) {
    const subject = threadSubject(fromFile, index);
    const { thread: taken, notes } = settingsHere(fromFile, servers.ids, servers.max);
    // Listed by its shown branch's latest answer, as here: a file's line may be of a branch it hides (older backups).
    const preview = previewOf(selectBranch(taken.messages, taken.thread.activeLeafId).path);
    const thread = { ...taken, thread: { ...taken.thread, preview } };
    try {
      const outcome = await deps.storage.threadArchive.add(deps.profileId, thread);
      if (outcome === 'added') imported.push(`${subject}: ${[contents(thread, read.kind), ...notes].join('; ')}`);
      else rejected.push({ subject, reasons: [NOT_ADDED[outcome]] });
    } catch (error) {
      if (error instanceof StorageQuotaError) {
        const after = read.threads.length - index - 1;
        const rest =
          after === 0 ? '' : after === 1 ? ', nor was the thread after it' : `, nor were the ${after} threads after it`;
        stopped = `The browser's storage is full: the import stopped at ${subject}, which was not imported${rest}. Free space (delete old threads, or allow this site more storage) and import the same file again: the threads already here are skipped.`;
        break;
      }
      rejected.push({ subject, reasons: [reasonOf(error)] });
    }
  }
  if (imported.length > 0) deps.storage.threadArchive.announce(deps.profileId);
  return { ok: true, imported, rejected, ...(stopped ? { stopped } : {}) };
}

const NOT_ADDED: Record<Exclude<AddedThread, 'added'>, string> = {
  here: 'already here',
  deleting: 'it is here, deleted a moment ago and waiting for Undo; press Undo (or let it go) and import again',
  elsewhere: 'a thread with the same id is in another profile of this browser; it was kept there and this one skipped',
  'foreign-attachment':
    'one of its messages names a file stored here for another thread (without the file itself); it was not imported, so that file stays with its thread',
};

/** What the report says a thread brought: its messages, and the attachments it holds or only names. */
function contents({ messages, attachments }: ImportableThread, kind: 'backup' | 'thread'): string {
  const named = new Set(messages.flatMap((m) => m.attachments ?? []).map((a) => a.id)).size;
  const held = attachments.length;
  const parts = [`${messages.length} message${messages.length === 1 ? '' : 's'}`];
  if (held > 0) parts.push(`${held} attachment${held === 1 ? '' : 's'}`);
  if (named > held)
    parts.push(
      `${named - held} attachment${named - held === 1 ? '' : 's'} named without ${named - held === 1 ? 'its file' : 'their files'}${kind === 'thread' ? ' (a single-thread export holds none)' : ''}`,
    );
  return parts.join(', ');
}

/** Why a thread's write failed, as a person reads it. */
function reasonOf(error: unknown): string {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'ConstraintError')
    return 'one of its records (a message, compaction or attachment) has the id of one stored here or twice in the file';
  return describeError(error);
}
