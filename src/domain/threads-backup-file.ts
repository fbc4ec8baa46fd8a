import { z } from 'zod';
import { ContextCompaction } from './compaction';
import { Message } from './message';
import { ThreadConfig } from './thread-config';

/** The `format` field that marks a backup of all of a profile's threads. */
export const THREADS_FILE_FORMAT = 'mcp-agent-threads';
/** The backup format's version; an import refuses files of a later version. */
export const THREADS_FILE_VERSION = 1;
/** The `format` of one thread's export (Thread menu › Export JSON): one branch, attachments named without their bytes. */
export const THREAD_FILE_FORMAT = 'mcp-agent-thread';
/** Largest file an import reads: attachments' bytes make a backup large; the whole file is read into memory. */
export const MAX_THREADS_FILE_BYTES = 200_000_000;

/**
 * A thread's settings as a backup keeps them: as the single-thread export keeps them (no approvals, no sampling
 * allowed, no apps' words for the model), never its profile (the importing one takes it) nor an Undo's deletion.
 */
export const BackedUpThreadSettings = ThreadConfig.omit({
  profileId: true,
  approvals: true,
  samplingAllowed: true,
  appContexts: true,
  deletedAt: true,
});
export type BackedUpThreadSettings = z.infer<typeof BackedUpThreadSettings>;

/** An attachment's bytes, as base64, under the id its message names. */
export const BackedUpAttachment = z.object({
  id: z.string().min(1),
  name: z.string(),
  mimeType: z.string(),
  data: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64'),
});
export type BackedUpAttachment = z.infer<typeof BackedUpAttachment>;

/** One thread in a backup: its settings, every message of every branch, its compactions and attachments' bytes. */
export const BackedUpThread = z.object({
  thread: BackedUpThreadSettings,
  messages: z.array(Message),
  compactions: z.array(ContextCompaction).default([]),
  attachments: z.array(BackedUpAttachment).default([]),
});
export type BackedUpThread = z.infer<typeof BackedUpThread>;

/** A backup of threads, version 1. Never a secret: no API key, tokens or vault contents, no approvals. */
export const ThreadsFile = z.object({
  format: z.literal(THREADS_FILE_FORMAT),
  version: z.literal(THREADS_FILE_VERSION),
  exportedAt: z.string(),
  threads: z.array(BackedUpThread),
});
export type ThreadsFile = z.infer<typeof ThreadsFile>;

/** A thread's entry in a backup: `thread` as stored, with what exportThreadJson leaves out left out here too. */
export function backedUpThread(
  thread: ThreadConfig,
  rest: Omit<BackedUpThread, 'thread'>,
): BackedUpThread & { thread: BackedUpThreadSettings } {
  const {
    profileId: _profileId,
    approvals: _approvals,
    samplingAllowed: _samplingAllowed,
    appContexts: _appContexts,
    deletedAt: _deletedAt,
    ...settings
  } = thread;
  return { thread: settings, ...rest };
}

/** The backup's opening, to which the threads' JSON is added one by one (a large backup is never one string). */
export function threadsFileHead(exportedAt: Date): string {
  const head = { format: THREADS_FILE_FORMAT, version: THREADS_FILE_VERSION, exportedAt: exportedAt.toISOString() };
  return `${JSON.stringify(head).slice(0, -1)},"threads":[`;
}
