import type { AskApproval } from '../domain/thread-tools';
import type { Approval } from '../domain/trace';
import type { PendingApproval } from './chat-store';

/**
 * Asks the person about a tool call by adding it to a list of pending approvals (shown inline) until it is answered;
 * a call stopped before or while it waits is denied.
 */
export function askThroughList(
  read: () => readonly PendingApproval[],
  write: (approvals: readonly PendingApproval[]) => void,
): AskApproval {
  return (request, signal) =>
    new Promise<Approval>((resolve) => {
      if (signal.aborted) return resolve('deny'); // Stopped before the question came up.
      const pending: PendingApproval = {
        ...request,
        answer: (decision) => {
          write(read().filter((p) => p !== pending));
          resolve(decision);
        },
      };
      signal.addEventListener('abort', () => pending.answer('deny'), { once: true });
      write([...read(), pending]);
    });
}
