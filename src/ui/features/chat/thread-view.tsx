import { useMemo } from 'react';
import type { Message } from '../../../domain/message';
import type { ThreadConfig } from '../../../domain/thread-config';
import type { ChatActions, PendingApproval } from '../../../stores/chat-store';
import type { ServerView } from '../../../stores/servers-store';
import { threadTokenTotals } from '../../../stores/token-totals';
import { ApprovalCard } from './approval-card';
import { ChatHeader } from './chat-header';
import { MessageList } from './message-list';
import { useThreadShape } from './use-thread-shape';

export interface ThreadViewProps {
  readonly thread: ThreadConfig;
  readonly messages: readonly Message[];
  readonly isRunning: boolean;
  readonly approvals: readonly PendingApproval[];
  readonly servers: readonly ServerView[];
  readonly actions: ChatActions;
}

/** An open thread's header, messages and pending approvals: loaded on demand, the first frame does not need them. */
export function ThreadView({ thread, messages, isRunning, approvals, servers, actions }: ThreadViewProps) {
  const shape = useThreadShape(messages); // A streamed delta adds no tokens: the totals come with the finished message.
  const totals = useMemo(() => threadTokenTotals(shape), [shape]);
  const serverNames = useMemo(() => new Map(servers.map((s) => [s.id, s.name])), [servers]);
  return (
    <>
      <ChatHeader thread={thread} totals={totals} servers={servers} actions={actions} />
      <MessageList key={thread.id} messages={messages} serverNames={serverNames} {...(isRunning ? {} : { onRetry: () => void actions.retry() })} />
      {approvals.map((approval) => (
        <ApprovalCard key={approval.toolUseId} approval={approval} />
      ))}
    </>
  );
}
