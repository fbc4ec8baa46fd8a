import { useEffect, useState } from 'react';
import type { ContextCompaction } from '../../../domain/compaction';
import type { Message } from '../../../domain/message';
import type { ThreadConfig } from '../../../domain/thread-config';
import type { ToolProgress } from '../../../domain/tool-result';
import type { ChatActions, PendingApproval, Reveal } from '../../../stores/chat-store';
import { modelWaitText, type ModelWait } from '../../../stores/chat-turn';
import type { McpAppsActions, McpAppsStore } from '../../../stores/mcp-apps';
import type { PendingElicitation, RefusedElicitation } from '../../../stores/server-requests';
import type { SamplingRequests } from '../../../stores/sampling-requests';
import type { ServerView } from '../../../stores/servers-store';
import type { TokenTotals } from '../../../stores/token-totals';
import { ReadAttachmentContext } from '../../components/attachment-chip';
import { ApprovalCard } from './approval-card';
import { ChatHeader } from './chat-header';
import { ElicitationCard, RefusedElicitationNote } from './elicitation-card';
import { AppRequests } from './mcp-app/app-requests';
import { McpAppsContext } from './mcp-app/apps-context';
import type { BranchControls } from './message-branches';
import { MessageList } from './message-list';
import { SamplingList } from './sampling-list';
import { ServerNamesContext } from './server-names-context';
import { ThreadIdContext } from './thread-id-context';
import { AwaitingElsewhereContext } from './awaiting-elsewhere-context';
import { ToolProgressContext } from './tool-progress';
import { ReadResourceContext } from './tool-result-view';

export interface ThreadPaneProps {
  readonly thread: ThreadConfig;
  readonly actions: ChatActions;
  readonly totals: TokenTotals;
  readonly servers: readonly ServerView[];
  readonly serverNames: ReadonlyMap<string, string>;
  readonly messages: readonly Message[];
  readonly compactions: readonly ContextCompaction[];
  readonly awaitingIds: ReadonlySet<string>;
  /** Calls that wait for the person's approval in the tab whose turn it is (another tab answering in the thread). */
  readonly awaitingElsewhere: ReadonlySet<string>;
  /** A turn runs in this tab, or another tab answers in the thread: no Retry, Edit or Regenerate meanwhile. */
  readonly isRunning: boolean;
  readonly isThinking: boolean;
  /** Why the answer waits (the API refused an attempt and the app tries again), said in place of "Thinking…". */
  readonly modelWait?: ModelWait | undefined;
  readonly branches: BranchControls | undefined;
  /** A message a search found: the thread opens at it. */
  readonly reveal: Reveal | undefined;
  readonly onRetry: (byKeyboard: boolean) => void;
  readonly toolProgress: Readonly<Record<string, ToolProgress>>;
  readonly mcpApps: { readonly store: McpAppsStore; readonly actions: McpAppsActions } | undefined;
  readonly approvals: readonly PendingApproval[];
  readonly elicitations: readonly PendingElicitation[];
  readonly refused: readonly RefusedElicitation[];
  readonly onDismissRefusal: (id: string) => void;
  readonly samplingRequests: SamplingRequests | undefined;
  /** Receives the dock of approvals and server requests (focus goes back to the message box after one is answered). */
  readonly onRequestsDock: (element: HTMLDivElement | null) => void;
}

/**
 * The open thread above the composer: its header, messages, and the approvals and server requests docked under
 * them. Its own chunk: it shows once start-up has opened the thread, so the first screen (the message box) does not
 * wait for its code, which is fetched beside start-up's.
 */
export default function ThreadPane({
  thread,
  actions,
  totals,
  servers,
  serverNames,
  messages,
  compactions,
  awaitingIds,
  awaitingElsewhere,
  isRunning,
  isThinking,
  modelWait,
  branches,
  reveal,
  onRetry,
  toolProgress,
  mcpApps,
  approvals,
  elicitations,
  refused,
  onDismissRefusal,
  samplingRequests,
  onRequestsDock,
}: ThreadPaneProps) {
  return (
    <>
      <ChatHeader thread={thread} totals={totals} servers={servers} actions={actions} isRunning={isRunning} />
      <ReadResourceContext.Provider value={actions.readResource}>
        <ReadAttachmentContext.Provider value={actions.readAttachment}>
          <ToolProgressContext.Provider value={toolProgress}>
            <McpAppsContext.Provider value={mcpApps?.actions}>
              <ServerNamesContext.Provider value={serverNames}>
                <ThreadIdContext.Provider value={thread.id}>
                  <AwaitingElsewhereContext.Provider value={awaitingElsewhere}>
                    <MessageList
                      key={thread.id}
                      messages={messages}
                      compactions={compactions}
                      serverNames={serverNames}
                      awaitingIds={awaitingIds}
                      isTurnRunning={isRunning}
                      reveal={reveal}
                      {...(branches ? { branches } : {})}
                      {...(isRunning ? {} : { onRetry })}
                    />
                  </AwaitingElsewhereContext.Provider>
                </ThreadIdContext.Provider>
              </ServerNamesContext.Provider>
            </McpAppsContext.Provider>
          </ToolProgressContext.Provider>
        </ReadAttachmentContext.Provider>
      </ReadResourceContext.Provider>
      {isThinking && (
        <p className="thinking-indicator muted" aria-label="Waiting for the answer">
          <span className="thinking-dots" aria-hidden="true" />
          {modelWait ? <WaitLine key={`${modelWait.status}@${modelWait.retryAt}`} wait={modelWait} /> : 'Thinking…'}
        </p>
      )}
      {/* Always in the page, so a screen reader reads the reason when it is filled in (once, not the countdown). */}
      <span className="visually-hidden" role="status">
        {modelWait ? modelWaitText(modelWait) : ''}
      </span>
      {/* Docked under the messages, at most part of the height: they scroll inside, their buttons stay in view. */}
      <div className="chat-requests" ref={onRequestsDock}>
        {approvals.map((approval) => (
          <ApprovalCard key={approval.toolUseId} approval={approval} />
        ))}
        <AppRequests store={mcpApps?.store} threadId={thread.id} />
        {elicitations.map((request) => (
          <ElicitationCard key={request.id} request={request} />
        ))}
        {refused.map((r) => (
          <RefusedElicitationNote key={r.id} refused={r} onDismiss={() => onDismissRefusal(r.id)} />
        ))}
        <SamplingList requests={samplingRequests} threadId={thread.id} />
      </div>
    </>
  );
}

/**
 * Why the answer waits and when the app tries again, counting down each second (hidden from a screen reader, which
 * hears the reason once from the pane's status). A new wait mounts a new line, so its count starts right.
 */
function WaitLine({ wait }: { wait: ModelWait }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return <span aria-hidden="true">{modelWaitText(wait, now)}</span>;
}
