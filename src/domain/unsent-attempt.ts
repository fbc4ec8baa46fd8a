import type { Message } from './message';

/**
 * A retried attempt that was never sent (a limit, a locked vault: no model call in its trace) and holds nothing: it
 * is neither shown nor exported, since each Retry refused the same way would add the same note again.
 */
export const isUnsentRetry = (message: Message): boolean =>
  message.retried === true && message.trace.length === 0 && message.blocks.length === 0;
