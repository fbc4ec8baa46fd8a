import type { Message } from '../domain/message';
import { shownText } from '../domain/message-text';
import type { ThreadConfig } from '../domain/thread-config';
import type { Storage } from '../storage/storage';

/** The title a thread has until its first message names it. */
export const UNTITLED = 'New thread';
const PREVIEW_CHARS = 140;

/**
 * A thread of the list that holds no message yet (New thread clicked, nothing sent), to open instead of storing
 * another empty one. Only untitled threads are checked, newest first.
 */
export async function findEmptyThread(
  storage: Storage,
  threads: readonly ThreadConfig[],
): Promise<ThreadConfig | undefined> {
  for (const thread of threads.filter((t) => t.title === UNTITLED)) {
    const { items } = await storage.messages.list(thread.id).catch(() => ({ items: [undefined] }));
    if (items.length === 0) return thread;
  }
  return undefined;
}

/** Whether a thread was left as New thread made it: untitled, no message. */
export async function isEmptyThread(storage: Storage, thread: ThreadConfig | undefined): Promise<boolean> {
  if (!thread || thread.title !== UNTITLED) return false;
  const { items } = await storage.messages.list(thread.id).catch(() => ({ items: [undefined] }));
  return items.length === 0;
}

/** One line from the start of the thread's latest answer, for the thread list; undefined when it has none. */
export function previewOf(messages: readonly Message[]): string | undefined {
  for (const message of messages.toReversed()) {
    if (message.role !== 'assistant') continue;
    const text = shownText(message.blocks);
    if (text) return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
  }
  return undefined;
}

/** A thread title from its first message. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || 'New thread';
}
