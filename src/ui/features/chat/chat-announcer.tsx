import { useState } from 'react';
import type { Message } from '../../../domain/message';
import type { PendingApproval } from '../../../stores/chat-store';
import { turnEndAnnouncement } from './chat-status';

/** A server's request waiting for the person (a question, a model call to approve), as it is announced. */
export interface Ask {
  readonly id: string;
  readonly text: string;
}

const NO_ASKS: readonly Ask[] = [];

interface Seen {
  readonly threadId: string | undefined;
  readonly isRunning: boolean;
  readonly approvals: readonly PendingApproval[];
  readonly asks: readonly Ask[];
  readonly text: string;
}

/**
 * A polite live region that tells screen readers what sighted people see happen: an answer finished (or stopped, or
 * failed), a tool waiting for their approval, and a server asking them something or asking to run the model. Streamed text itself is not read out word by word. The region is
 * emptied when a turn starts and when another thread opens, so the next turn's end is a change to announce (the same
 * "Answer complete." set again would be none) and one thread's news is not left standing in another.
 */
export function ChatAnnouncer({
  threadId,
  isRunning,
  messages,
  approvals,
  asks = NO_ASKS,
}: {
  threadId: string | undefined;
  /** A turn runs in this thread. */
  isRunning: boolean;
  messages: readonly Message[];
  approvals: readonly PendingApproval[];
  /** Servers' requests shown in this thread that wait for the person (elicitation, sampling to approve). */
  asks?: readonly Ask[];
}) {
  const [seen, setSeen] = useState<Seen>({ threadId, isRunning, approvals, asks, text: '' });
  // Adjusted while rendering (React's pattern for state that follows props): no effect, no extra paint.
  if (seen.threadId !== threadId) setSeen({ threadId, isRunning, approvals, asks, text: '' });
  else if (seen.isRunning !== isRunning || seen.approvals !== approvals || seen.asks !== asks) {
    const fresh = [
      ...approvals
        .filter((a) => !seen.approvals.some((old) => old.toolUseId === a.toolUseId))
        .map((a) => `Approval needed: ${a.tool.serverName} wants to run ${a.tool.toolName}.`),
      ...asks.filter((a) => !seen.asks.some((old) => old.id === a.id)).map((a) => a.text),
    ];
    const text =
      fresh.length > 0
        ? fresh.join(' ')
        : seen.isRunning && !isRunning
          ? (turnEndAnnouncement(messages) ?? '')
          : !seen.isRunning && isRunning
            ? ''
            : seen.text;
    setSeen({ threadId, isRunning, approvals, asks, text });
  }
  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-label="Chat announcements">
      {seen.text}
    </div>
  );
}
