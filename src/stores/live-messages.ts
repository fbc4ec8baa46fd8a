import type { Message } from '../domain/message';

/** Runs a callback before the next frame is painted (soon, where there are no frames). */
export type FrameScheduler = (callback: () => void) => void;

/** Before the next frame (requestAnimationFrame), or in 16 ms where there are no frames. */
export const nextFrame: FrameScheduler = (callback) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => callback());
  else setTimeout(callback, 16);
};

/** The thread's messages with `changed` put in: replaced where they are, new ones in `seq` order. */
export function mergeMessages(messages: readonly Message[], changed: readonly Message[]): Message[] {
  const next = [...messages];
  let isAdded = false;
  for (const message of changed) {
    const at = next.findLastIndex((m) => m.id === message.id); // A live message is at or near the end.
    if (at >= 0) next[at] = message;
    else {
      next.push(message);
      isAdded = true;
    }
  }
  return isAdded ? next.sort((a, b) => a.seq - b.seq) : next;
}

/**
 * A turn's live messages, coalesced: streamed deltas reach `apply` at most once a frame (a fast stream would
 * otherwise re-render a long thread per token), a finished message at once, with any delta still waiting.
 */
export function coalesceMessages(apply: (changed: Message[]) => void, schedule: FrameScheduler = nextFrame) {
  const pending = new Map<string, Message>();
  let isScheduled = false;
  const flush = () => {
    isScheduled = false;
    if (pending.size === 0) return;
    const changed = [...pending.values()];
    pending.clear();
    apply(changed);
  };
  const push = (message: Message): void => {
    pending.set(message.id, message);
    if (message.status !== 'streaming') flush();
    else if (!isScheduled) {
      isScheduled = true;
      schedule(flush);
    }
  };
  return { push, flush };
}

/**
 * The latest value per key, written to `apply` at most once a frame (a server may send thousands of progress
 * notifications a second; each would otherwise be a store write and a re-render). `clear` drops what waits.
 */
export function coalesceLatest<K, V>(apply: (changed: Map<K, V>) => void, schedule: FrameScheduler = nextFrame) {
  let pending = new Map<K, V>();
  let isScheduled = false;
  const flush = () => {
    isScheduled = false;
    if (pending.size === 0) return;
    const changed = pending;
    pending = new Map();
    apply(changed);
  };
  const push = (key: K, value: V): void => {
    pending.set(key, value);
    if (!isScheduled) {
      isScheduled = true;
      schedule(flush);
    }
  };
  return { push, flush, clear: () => void pending.clear() };
}
