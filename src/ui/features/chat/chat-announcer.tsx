import { useState } from 'react';
import type { Message } from '../../../domain/message';
import type { PendingApproval } from '../../../stores/chat-store';
import { turnEndAnnouncement } from './chat-status';

interface Seen {
  readonly isRunning: boolean;
  readonly approvals: readonly PendingApproval[];
  readonly text: string;
}

/**
 * A polite live region that tells screen readers what sighted people see happen: an answer finished (or stopped, or
 * failed) and a tool waiting for their approval. Streamed text itself is not read out word by word.
 */
export function ChatAnnouncer({
  isRunning,
  messages,
  approvals,
}: {
  isRunning: boolean;
  messages: readonly Message[];
  approvals: readonly PendingApproval[];
}) {
  const [seen, setSeen] = useState<Seen>({ isRunning, approvals, text: '' });
  // Adjusted while rendering (React's pattern for state that follows props): no effect, no extra paint.
  if (seen.isRunning !== isRunning || seen.approvals !== approvals) {
    const fresh = approvals.filter((a) => !seen.approvals.some((old) => old.toolUseId === a.toolUseId));
    const text =
      fresh.length > 0
        ? fresh.map((a) => `Approval needed: ${a.tool.serverName} wants to run ${a.tool.toolName}.`).join(' ')
        : seen.isRunning && !isRunning
          ? (turnEndAnnouncement(messages) ?? seen.text)
          : seen.text;
    setSeen({ isRunning, approvals, text });
  }
  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-label="Chat announcements">
      {seen.text}
    </div>
  );
}
