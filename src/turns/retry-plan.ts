import type { Message } from '../domain/message';

/** What Retry works on: the failed answers at the thread's end, and the person's text that turn answers. */
export interface RetryPlan {
  readonly failed: readonly Message[];
  readonly userText: string;
}

/** The retry of a thread that ends in failed answers (model API error, network), or undefined when it does not. */
export function retryPlan(messages: readonly Message[]): RetryPlan | undefined {
  let start = messages.length;
  while (start > 0 && isFailedAnswer(messages[start - 1])) start--;
  if (start === messages.length) return undefined;
  // The turn's person message: the last user message with text (tool results are user messages too).
  const person = messages.slice(0, start).findLast((m) => m.role === 'user' && m.blocks.some((b) => b.type === 'text'));
  if (!person) return undefined;
  const userText = person.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
  return { failed: messages.slice(start), userText };
}

/** An answer that ended in an error (not one the person stopped). */
export function isFailedAnswer(message: Message | undefined): boolean {
  return message?.role === 'assistant' && message.status === 'error';
}
