import { useMemo, useRef } from 'react';
import type { Message } from '../../../domain/message';
import type { ThreadConfig } from '../../../domain/thread-config';
import type { ChatActions, ChatStore, PendingApproval } from '../../../stores/chat-store';
import type { DraftStore } from '../../../stores/draft';
import type { ServersStore, ServerView } from '../../../stores/servers-store';
import { threadTokenTotals } from '../../../stores/token-totals';
import { useStoreIfAny } from '../../hooks/use-store';
import { ApprovalCard } from './approval-card';
import { ChatAnnouncer } from './chat-announcer';
import { isAwaitingModel } from './chat-status';
import { ChatHeader } from './chat-header';
import { Composer } from './composer';
import { MessageList } from './message-list';
import { useThreadShape } from './use-thread-shape';
import './chat.css';

// Stable values while the stores do not exist yet.
const NO_THREADS: readonly ThreadConfig[] = [];
const NO_MESSAGES: readonly Message[] = [];
const NO_APPROVALS: readonly PendingApproval[] = [];
const NO_SERVERS: readonly ServerView[] = [];

export interface ChatViewProps {
  /** The chat, once start-up is done; before, only the composer shows, taking typing into the draft. */
  readonly chat?: ChatStore | undefined;
  readonly actions?: ChatActions | undefined;
  readonly servers?: ServersStore | undefined;
  readonly draft: DraftStore;
}

/**
 * The open thread: its header, messages and pending approvals, then the composer (the same one from the first frame
 * on). The composer is docked at the bottom of the main column, outside the chat, so that it stays in view whatever
 * is open above the chat (Servers, Settings, the thread's settings), on a phone too.
 */
export function ChatView({ chat, actions, servers, draft }: ChatViewProps) {
  const activeId = useStoreIfAny(chat, (s) => s.activeThreadId, undefined);
  const threads = useStoreIfAny(chat, (s) => s.threads, NO_THREADS);
  const messages = useStoreIfAny(chat, (s) => s.messages, NO_MESSAGES);
  const isRunning = useStoreIfAny(chat, (s) => s.isRunning, false);
  const approvals = useStoreIfAny(chat, (s) => s.pendingApprovals, NO_APPROVALS);
  const serverViews = useStoreIfAny(servers, (s) => s.servers, NO_SERVERS);
  const thread = threads.find((t) => t.id === activeId);
  const shape = useThreadShape(messages); // A streamed delta adds no tokens: the totals come with the finished message.
  const totals = useMemo(() => threadTokenTotals(shape), [shape]);
  const serverNames = useMemo(() => new Map(serverViews.map((s) => [s.id, s.name])), [serverViews]);
  const awaitingIds = useMemo(() => new Set(approvals.map((a) => a.toolUseId)), [approvals]);
  const isThinking = isRunning && approvals.length === 0 && isAwaitingModel(messages);
  const composerBox = useRef<HTMLTextAreaElement>(null);
  // Retry's button goes away with the error, so keyboard focus would fall to the page: it goes to the message box.
  // Not after a tap or click: on a phone, focusing the box would raise the keyboard over the answer coming in.
  const retry = (byKeyboard: boolean) => {
    if (byKeyboard) composerBox.current?.focus();
    void actions?.retry();
  };
  return (
    <>
      <section className="chat" aria-label="Chat">
        {thread && actions ? (
          <>
            <ChatHeader thread={thread} totals={totals} servers={serverViews} actions={actions} />
            <MessageList
              key={thread.id}
              messages={messages}
              serverNames={serverNames}
              awaitingIds={awaitingIds}
              isTurnRunning={isRunning}
              {...(isRunning ? {} : { onRetry: retry })}
            />
            {isThinking && (
              <p className="thinking-indicator muted" aria-label="Waiting for the answer">
                <span className="thinking-dots" aria-hidden="true" />
                Thinking…
              </p>
            )}
            {approvals.map((approval) => (
              <ApprovalCard key={approval.toolUseId} approval={approval} />
            ))}
          </>
        ) : (
          <p className="empty muted">{actions ? 'Start a new thread to chat.' : ''}</p>
        )}
        <ChatAnnouncer isRunning={isRunning} messages={messages} approvals={approvals} />
      </section>
      <div className="composer-dock">
        <Composer
          draft={draft}
          isRunning={isRunning}
          isDisabled={actions !== undefined && !thread}
          isSendHeld={actions === undefined}
          onSend={(text) => void actions?.send(text)}
          onStop={() => actions?.stop()}
          mentionOptions={(query) => actions?.mentionOptions(query) ?? []}
          boxRef={composerBox}
        />
      </div>
    </>
  );
}
