import type { ImportProblem } from '../domain/config-import';
import { describeError, StorageQuotaError } from '../domain/errors';
import { backedUpThread, threadsFileHead } from '../domain/threads-backup-file';
import { readThreadsFile, threadSubject, type ImportableThread } from '../domain/threads-backup-import';
import type { Storage } from '../storage/storage';

export interface ThreadsBackupDeps {
  readonly storage: Storage;
  readonly profileId: string;
  readonly now: () => number;
}

/** A backup to hand to the person's downloads, in pieces (one per thread: a large backup is never one string). */
export interface ExportedBackup {
  readonly name: string;
  readonly type: string;
  readonly parts: readonly string[];
  /** Threads in the file. */
  readonly threads: number;
  /** Stored records that could not be read, left out of the file. */
  readonly skipped: number;
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
export async function exportAllThreads(deps: ThreadsBackupDeps): Promise<ExportedBackup> {
  const { storage, profileId } = deps;
  const exportedAt = new Date(deps.now());
  const { items: threads, skipped: skippedThreads } = await storage.threads.list(profileId);
  const parts = [threadsFileHead(exportedAt)];
  let skipped = skippedThreads.length;
  for (const { id } of threads) {
    const records = await storage.threadArchive.read(id);
    if (!records || records.thread.deletedAt !== undefined) continue; // Deleted meanwhile.
    skipped += records.skipped;
    const refs = new Map(records.messages.flatMap((m) => m.attachments ?? []).map((ref) => [ref.id, ref]));
    const attachments = records.attachments.map(({ id, mimeType, data }) => ({
      id,
      name: refs.get(id)?.name ?? id,
      mimeType: refs.get(id)?.mimeType ?? mimeType,
      data,
    }));
    const entry = backedUpThread(records.thread, {
      messages: [...records.messages],
      compactions: [...records.compactions],
      attachments,
    });
    parts.push(`${parts.length > 1 ? ',' : ''}${JSON.stringify(entry)}`);
  }
  parts.push(']}\n');
  return {
    name: `mcp-agent-threads-${exportedAt.toISOString().slice(0, 10)}.json`,
    type: 'application/json',
    parts,
    threads: parts.length - 2,
    skipped,
  };
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
  for (const [index, thread] of read.threads.entries()) {
    const subject = threadSubject(thread, index);
    try {
      const outcome = await deps.storage.threadArchive.add(deps.profileId, thread);
      if (outcome === 'added') imported.push(`${subject}: ${contents(thread, read.kind)}`);
      else rejected.push({ subject, reasons: [outcome === 'here' ? 'already here' : IN_ANOTHER_PROFILE] });
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

const IN_ANOTHER_PROFILE =
  'a thread with the same id is in another profile of this browser; it was kept there and this one skipped';

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
    return 'one of its messages or attachments has the id of one stored here in another thread';
  return describeError(error);
}
