import { useEffect, useMemo, useRef } from 'react';
import type { ContextCompaction } from '../../../domain/compaction';
import type { Message } from '../../../domain/message';
import type { ThreadConfig } from '../../../domain/thread-config';
import type { ChatActions, ChatStore, PendingApproval } from '../../../stores/chat-store';
import type { DraftStore } from '../../../stores/draft';
import type { ServersStore, ServerView } from '../../../stores/servers-store';
import { threadTokenTotals } from '../../../stores/token-totals';
import { useStoreIfAny } from '../../hooks/use-store';
import { ApprovalCard } from './approval-card';
import { ElicitationCard, RefusedElicitationNote } from './elicitation-card';
import type { PendingElicitation, RefusedElicitation, ServerRequests } from '../../../stores/server-requests';
import type { PendingSampling, RefusedSampling, SamplingRequests } from '../../../stores/sampling-requests';
import { RefusedSamplingNote, SamplingCard } from './sampling-card';
import './sampling.css';
import type { PromptActions, PromptsStore } from '../../../stores/prompts-store';
import { setDraft } from '../../../stores/draft';
import { PromptForm } from './prompt-form';
import { usePromptMenu } from './use-prompt-menu';
import { ChatAnnouncer } from './chat-announcer';
import { isAwaitingModel } from './chat-status';
import { ChatHeader } from './chat-header';
import { Composer } from './composer';
import { MessageList } from './message-list';
import { ReadResourceContext } from './tool-result-view';
import { ToolProgressContext } from './tool-progress';
import type { ToolProgress } from '../../../domain/tool-result';
import { useThreadShape } from './use-thread-shape';
import './chat.css';

// Stable values while the stores do not exist yet.
const NO_THREADS: readonly ThreadConfig[] = [];
const NO_MESSAGES: readonly Message[] = [];
const NO_COMPACTIONS: readonly ContextCompaction[] = [];
const NO_APPROVALS: readonly PendingApproval[] = [];
const NO_SERVERS: readonly ServerView[] = [];
const NO_ELICITATIONS: readonly PendingElicitation[] = [];
const NO_REFUSALS: readonly RefusedElicitation[] = [];
const NO_SAMPLINGS: readonly PendingSampling[] = [];
const NO_SAMPLING_REFUSALS: readonly RefusedSampling[] = [];
const NO_PROGRESS: Readonly<Record<string, ToolProgress>> = {};

export interface ChatViewProps {
  /** The chat, once start-up is done; before, only the composer shows, taking typing into the draft. */
  readonly chat?: ChatStore | undefined;
  readonly actions?: ChatActions | undefined;
  readonly servers?: ServersStore | undefined;
  readonly draft: DraftStore;
  /** Servers' questions to the person (elicitation). */
  readonly serverRequests?: ServerRequests | undefined;
  /** Servers' requests to run the model (sampling). */
  readonly samplingRequests?: SamplingRequests | undefined;
  /** The `/` prompts of the thread's servers. */
  readonly prompts?: { readonly store: PromptsStore; readonly actions: PromptActions } | undefined;
}

/**
 * The open thread: its header, messages and pending approvals, then the composer (the same one from the first frame
 * on). The composer is docked at the bottom of the main column, outside the chat, so that it stays in view whatever
 * is open above the chat (Servers, Settings, the thread's settings), on a phone too.
 */
export function ChatView({ chat, actions, servers, draft, serverRequests, samplingRequests, prompts }: ChatViewProps) {
  const samplings = useStoreIfAny(samplingRequests?.store, (s) => s.samplings, NO_SAMPLINGS);
  const refusedSamplings = useStoreIfAny(samplingRequests?.store, (s) => s.refused, NO_SAMPLING_REFUSALS);
  const elicitations = useStoreIfAny(serverRequests?.store, (s) => s.elicitations, NO_ELICITATIONS);
  const refused = useStoreIfAny(serverRequests?.store, (s) => s.refused, NO_REFUSALS);
  const activeId = useStoreIfAny(chat, (s) => s.activeThreadId, undefined);
  const threads = useStoreIfAny(chat, (s) => s.threads, NO_THREADS);
  const messages = useStoreIfAny(chat, (s) => s.messages, NO_MESSAGES);
  const compactions = useStoreIfAny(chat, (s) => s.compactions, NO_COMPACTIONS);
  const isRunning = useStoreIfAny(chat, (s) => s.isRunning, false);
  const approvals = useStoreIfAny(chat, (s) => s.pendingApprovals, NO_APPROVALS);
  const toolProgress = useStoreIfAny(chat, (s) => s.toolProgress, NO_PROGRESS);
  const serverViews = useStoreIfAny(servers, (s) => s.servers, NO_SERVERS);
  const thread = threads.find((t) => t.id === activeId);
  const shape = useThreadShape(messages); // A streamed delta adds no tokens: the totals come with the finished message.
  const totals = useMemo(() => threadTokenTotals(shape), [shape]);
  const serverNames = useMemo(() => new Map(serverViews.map((s) => [s.id, s.name])), [serverViews]);
  const awaitingIds = useMemo(() => new Set(approvals.map((a) => a.toolUseId)), [approvals]);
  const isThinking = isRunning && approvals.length === 0 && isAwaitingModel(messages);
  const composerBox = useRef<HTMLTextAreaElement>(null);
  const promptServerIds = useMemo(
    () => (thread?.enabledServerIds ?? []).filter((id) => serverViews.some((s) => s.id === id && s.config.enabled)),
    [thread?.enabledServerIds, serverViews],
  );
  const slashMenu = usePromptMenu(prompts, promptServerIds);
  const chosenPrompt = useStoreIfAny(prompts?.store, (s) => s.chosen, undefined);
  const hadPrompt = useRef(false);
  useEffect(() => {
    // The prompt form closed (sent, inserted or cancelled): the keyboard goes back to the message box.
    if (hadPrompt.current && !chosenPrompt) composerBox.current?.focus();
    hadPrompt.current = chosenPrompt !== undefined;
  }, [chosenPrompt]);
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
            <ReadResourceContext.Provider value={actions.readResource}>
              <ToolProgressContext.Provider value={toolProgress}>
                <MessageList
                  key={thread.id}
                  messages={messages}
                  compactions={compactions}
                  serverNames={serverNames}
                  awaitingIds={awaitingIds}
                  isTurnRunning={isRunning}
                  {...(isRunning ? {} : { onRetry: retry })}
                />
              </ToolProgressContext.Provider>
            </ReadResourceContext.Provider>
            {isThinking && (
              <p className="thinking-indicator muted" aria-label="Waiting for the answer">
                <span className="thinking-dots" aria-hidden="true" />
                Thinking…
              </p>
            )}
            {approvals.map((approval) => (
              <ApprovalCard key={approval.toolUseId} approval={approval} />
            ))}
            {elicitations.map((request) => (
              <ElicitationCard key={request.id} request={request} />
            ))}
            {refused.map((r) => (
              <RefusedElicitationNote key={r.id} refused={r} onDismiss={() => serverRequests?.dismissRefusal(r.id)} />
            ))}
            {samplings.map((request) => (
              <SamplingCard key={request.id} request={request} />
            ))}
            {refusedSamplings.map((r) => (
              <RefusedSamplingNote key={r.id} refused={r} onDismiss={() => samplingRequests?.dismissRefusal(r.id)} />
            ))}
          </>
        ) : (
          <p className="empty muted">{actions ? 'Start a new thread to chat.' : ''}</p>
        )}
        <ChatAnnouncer isRunning={isRunning} messages={messages} approvals={approvals} />
      </section>
      <div className="composer-dock">
        {chosenPrompt && prompts && (
          <PromptForm
            chosen={chosenPrompt}
            actions={prompts.actions}
            onInsert={(text) => setDraft(draft, text)}
            isTurnRunning={isRunning}
          />
        )}
        <Composer
          draft={draft}
          isRunning={isRunning}
          isDisabled={actions !== undefined && !thread}
          isSendHeld={actions === undefined}
          onSend={(text) => void actions?.send(text)}
          onStop={() => actions?.stop()}
          mentionOptions={(query) => actions?.mentionOptions(query) ?? []}
          boxRef={composerBox}
          {...(slashMenu ? { slashMenu } : {})}
        />
      </div>
    </>
  );
}
