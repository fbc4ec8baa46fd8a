import type { z } from 'zod';
import { CONFIG_FILE_FORMAT } from './config-file';
import { fileTooLarge, parseImportText, type ImportProblem } from './config-import';
import {
  BackedUpThread,
  MAX_THREADS_FILE_BYTES,
  THREAD_FILE_FORMAT,
  THREADS_FILE_FORMAT,
  THREADS_FILE_VERSION,
} from './threads-backup-file';
import { toFieldIssues } from './validation';

/** A thread of a backup that passed every check, ready to be stored as it is. */
export type ImportableThread = BackedUpThread;

export type ReadThreadsResult =
  | {
      readonly ok: true;
      /** 'thread': a single-thread export (one branch, attachments named without their bytes). */
      readonly kind: 'backup' | 'thread';
      readonly threads: readonly ImportableThread[];
      readonly rejected: readonly ImportProblem[];
    }
  | { readonly ok: false; readonly message: string };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const MADE_BY = 'Choose a file made by "Export all threads" (Settings) or a thread\'s "Export JSON".';
/** Problems listed per thread at most: a broken thread can have thousands. */
const MAX_REASONS = 5;

/** The refusal of a file larger than an import reads. */
export function threadsFileTooLarge(bytes: number): string {
  return fileTooLarge(bytes, 'a threads backup', MAX_THREADS_FILE_BYTES);
}

/** Reads a threads backup (or one thread's export): refuses what is not one at all, otherwise checks each thread. */
export function readThreadsFile(text: string): ReadThreadsResult {
  const parsed = parseImportText(text, MAX_THREADS_FILE_BYTES, {
    tooLarge: threadsFileTooLarge,
    notJson: `This file is not valid JSON (it may be cut short), so nothing was imported. ${MADE_BY}`,
  });
  if (!parsed.ok) return parsed;
  const { data } = parsed;
  const format = isObject(data) ? data.format : undefined;
  if (!isObject(data) || (format !== THREADS_FILE_FORMAT && format !== THREAD_FILE_FORMAT)) {
    const message =
      format === CONFIG_FILE_FORMAT
        ? 'This is a configuration file: import it with "Import configuration". Nothing was imported.'
        : `This is not a threads backup of MCP Agent (it has no "format": "${THREADS_FILE_FORMAT}"), so nothing was imported. ${MADE_BY}`;
    return { ok: false, message };
  }
  if (typeof data.version !== 'number' || !Number.isInteger(data.version) || data.version < 1)
    return { ok: false, message: 'The file has no valid "version", so nothing was imported.' };
  if (data.version > THREADS_FILE_VERSION)
    return {
      ok: false,
      message: `The file was made by a newer version of the app (format version ${data.version}; this one reads version ${THREADS_FILE_VERSION}). Nothing was imported.`,
    };
  const kind = format === THREAD_FILE_FORMAT ? 'thread' : 'backup';
  // One thread's export holds its settings and its shown branch: read as a backup of that one thread.
  const entries: unknown[] | undefined =
    kind === 'thread' ? [{ thread: data.thread, messages: data.messages }] : (data.threads as unknown[]);
  if (!Array.isArray(entries))
    return { ok: false, message: 'The file has no list of "threads", so nothing was imported.' };
  const threads: ImportableThread[] = [];
  const rejected: ImportProblem[] = [];
  entries.forEach((raw, index) => {
    const checked = checkThread(raw, index);
    if (checked.ok) threads.push(checked.thread);
    else rejected.push(checked.problem);
  });
  return { ok: true, kind, threads, rejected };
}

/** What a thread of the file is called in the report: its title, or its place in the file. */
export function threadSubject(raw: unknown, index: number): string {
  const title = isObject(raw) && isObject(raw.thread) ? raw.thread.title : undefined;
  if (typeof title !== 'string' || !title.trim()) return `Thread ${index + 1}`;
  const trimmed = title.trim();
  return `Thread "${trimmed.length > 60 ? `${trimmed.slice(0, 60)}…` : trimmed}"`;
}

type Checked =
  { readonly ok: true; readonly thread: ImportableThread } | { readonly ok: false; problem: ImportProblem };

/** One thread: its records' shapes, then whether they hold together (ids, order, branches, compactions). */
function checkThread(raw: unknown, index: number): Checked {
  const subject = threadSubject(raw, index);
  const parsed = BackedUpThread.safeParse(raw);
  if (!parsed.success) return { ok: false, problem: { subject, reasons: listed(describeIssues(parsed.error)) } };
  const reasons = brokenLinks(parsed.data);
  if (reasons.length > 0) return { ok: false, problem: { subject, reasons: listed(reasons) } };
  const { thread, messages } = parsed.data;
  // A shown branch whose end is not in the file: the newest message's branch shows, as for a thread before branches.
  if (thread.activeLeafId !== undefined && !messages.some((m) => m.id === thread.activeLeafId)) {
    const { activeLeafId: _gone, ...rest } = thread;
    return { ok: true, thread: { ...parsed.data, thread: rest } };
  }
  return { ok: true, thread: parsed.data };
}

/** What does not hold together in a thread whose records each have the right shape. */
function brokenLinks({ thread, messages, compactions, attachments }: BackedUpThread): string[] {
  const reasons: string[] = [];
  const seqOf = new Map<string, number>();
  const seqs = new Set<number>();
  for (const message of messages) {
    if (message.threadId !== thread.id) reasons.push(`message ${message.id} belongs to another thread`);
    if (seqOf.has(message.id)) reasons.push(`message ${message.id} appears twice`);
    if (seqs.has(message.seq)) reasons.push(`two messages have the place ${message.seq}`);
    seqOf.set(message.id, message.seq);
    seqs.add(message.seq);
  }
  for (const message of messages) {
    if (message.parentId === null || message.parentId === undefined) continue;
    const parentSeq = seqOf.get(message.parentId);
    // A message always follows one written before it: a later or missing parent would break its branch.
    if (parentSeq === undefined) reasons.push(`message ${message.id} follows a message that is not in the file`);
    else if (parentSeq >= message.seq) reasons.push(`message ${message.id} follows a message written after it`);
  }
  const compactionIds = new Set<string>();
  for (const compaction of compactions) {
    if (compaction.threadId !== thread.id) reasons.push(`compaction ${compaction.id} belongs to another thread`);
    if (compactionIds.has(compaction.id)) reasons.push(`compaction ${compaction.id} appears twice`);
    compactionIds.add(compaction.id);
    const keptSeq = seqOf.get(compaction.firstKeptMessageId);
    if (keptSeq === undefined) reasons.push(`compaction ${compaction.id} starts at a message that is not in the file`);
    // The model's context starts at firstKeptSeq: it must be where the message it names stands.
    else if (keptSeq !== compaction.firstKeptSeq)
      reasons.push(`compaction ${compaction.id} starts at place ${compaction.firstKeptSeq}, not at its message's`);
  }
  const attachmentIds = new Set<string>();
  for (const attachment of attachments) {
    if (attachmentIds.has(attachment.id)) reasons.push(`attachment ${attachment.id} appears twice`);
    attachmentIds.add(attachment.id);
  }
  return reasons;
}

const describeIssues = (error: z.ZodError): string[] =>
  toFieldIssues(error).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));

const listed = (reasons: readonly string[]): string[] =>
  reasons.length > MAX_REASONS
    ? [...reasons.slice(0, MAX_REASONS), `and ${reasons.length - MAX_REASONS} more problems`]
    : [...reasons];

/** Why an imported thread's settings were changed, each said in its report line. */
export interface SettingsHere {
  readonly thread: ImportableThread;
  readonly notes: readonly string[];
}

/**
 * A thread's settings as this browser takes them from a file, which anyone may have made: only servers this profile
 * has are on (up to its servers-per-thread limit), and a file cannot turn the spend cap off (the profile's applies).
 */
export function settingsHere(
  backup: ImportableThread,
  known: ReadonlySet<string>,
  maxServers: number | undefined,
): SettingsHere {
  const { thread } = backup;
  const notes: string[] = [];
  const here = thread.enabledServerIds.filter((id) => known.has(id));
  const missing = thread.enabledServerIds.filter((id) => !known.has(id));
  if (missing.length > 0)
    notes.push(
      `servers not in this profile left off (${missing.join(', ')}): add them, then switch them on in the thread`,
    );
  const kept = maxServers === undefined ? here : here.slice(0, maxServers);
  if (kept.length < here.length)
    notes.push(`${kept.length} of its ${here.length} servers on (your servers-per-thread limit)`);
  const { maxCostUsd, ...rest } = thread;
  if (maxCostUsd === null) notes.push("its “no spend cap” was not taken: this profile's cap applies");
  return {
    thread: {
      ...backup,
      thread: { ...rest, ...(maxCostUsd === null ? {} : { maxCostUsd }), enabledServerIds: kept },
    },
    notes,
  };
}
