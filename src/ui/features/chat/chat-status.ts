import type { Message } from '../../../domain/message';

/**
 * Whether a running turn is waiting for the model's first words: nothing of the next answer has arrived yet (its
 * message is not there, or holds no text, thinking or call so far), and no tool call runs.
 */
export function isAwaitingModel(messages: readonly Message[]): boolean {
  const last = messages.at(-1);
  if (!last || last.role === 'user') return true;
  if (last.status !== 'streaming') return false; // A finished answer ending in calls: its tools run.
  return !last.blocks.some((block) => (block.type === 'text' ? block.text.trim().length > 0 : true));
}

/** What a screen reader is told when a turn ends: the answer is complete, stopped or failed. */
export function turnEndAnnouncement(messages: readonly Message[]): string | undefined {
  const answer = messages.findLast((m) => m.role === 'assistant');
  if (!answer) return undefined;
  // An answer that ended before it was done says why (its note), rather than "complete".
  if (answer.status === 'complete') return answer.error ?? 'Answer complete.';
  if (answer.status === 'interrupted') return 'Answer stopped.';
  // Its reason is read out by the error's own alert under the answer: said here too, it would be heard twice.
  if (answer.status === 'error') return 'The answer failed.';
  return undefined;
}
