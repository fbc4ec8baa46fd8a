import { useMemo } from 'react';
import type { ChatActions, ChatStore } from '../../../stores/chat-store';
import type { ServersStore } from '../../../stores/servers-store';
import { threadTokenTotals } from '../../../stores/token-totals';
import { useStore } from '../../hooks/use-store';
import { ApprovalCard } from './approval-card';
import { ChatHeader } from './chat-header';
import { Composer } from './composer';
import { MessageList } from './message-list';
import { useThreadShape } from './use-thread-shape';
import './chat.css';

/** The open thread: its header, messages, pending approvals and the composer. */
export function ChatView({ chat, actions, servers }: { chat: ChatStore; actions: ChatActions; servers: ServersStore }) {
  const activeId = useStore(chat, (s) => s.activeThreadId);
  const threads = useStore(chat, (s) => s.threads);
  const messages = useStore(chat, (s) => s.messages);
  const isRunning = useStore(chat, (s) => s.isRunning);
  const approvals = useStore(chat, (s) => s.pendingApprovals);
  const serverViews = useStore(servers, (s) => s.servers);
  const thread = threads.find((t) => t.id === activeId);
  const shape = useThreadShape(messages); // A streamed delta adds no tokens: the totals come with the finished message.
  const totals = useMemo(() => threadTokenTotals(shape), [shape]);
  const serverNames = useMemo(() => new Map(serverViews.map((s) => [s.id, s.name])), [serverViews]);
  return (
    <section className="chat" aria-label="Chat">
      {thread ? (
        <>
          <ChatHeader thread={thread} totals={totals} servers={serverViews} actions={actions} />
          <MessageList key={thread.id} messages={messages} serverNames={serverNames} {...(isRunning ? {} : { onRetry: () => void actions.retry() })} />
          {approvals.map((approval) => (
            <ApprovalCard key={approval.toolUseId} approval={approval} />
          ))}
        </>
      ) : (
        <p className="empty muted">Start a new thread to chat.</p>
      )}
      <Composer
        isRunning={isRunning}
        isDisabled={!thread}
        onSend={(text) => void actions.send(text)}
        onStop={() => actions.stop()}
        mentionOptions={(query) => actions.mentionOptions(query)}
      />
    </section>
  );
}
