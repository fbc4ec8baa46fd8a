import { useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { ContextCompaction } from '../../../domain/compaction';
import type { Message } from '../../../domain/message';
import type { ThreadConfig } from '../../../domain/thread-config';
import type { ChatActions, ChatStore, PendingApproval } from '../../../stores/chat-store';
import type { DraftStore } from '../../../stores/draft';
import type { ServersStore, ServerView } from '../../../stores/servers-store';
import { threadTokenTotals } from '../../../stores/token-totals';
import { useStore, useStoreIfAny } from '../../hooks/use-store';
import type { AttachmentDraftHandle } from '../../../stores/attachment-draft';
import { sendWithAttachments } from '../../../stores/send-with-attachments';
import { AttachButton, AttachmentZone } from './attachment-tray';
import { ResourceActionsContext } from '../resources/resource-context';
import { ResourceTemplateForm } from '../resources/resource-template-form';
import type { PendingElicitation, RefusedElicitation, ServerRequests } from '../../../stores/server-requests';
import { ChatAnnouncer } from './chat-announcer';
import { isAwaitingModel } from './chat-status';
import { Composer } from './composer';
import type { BranchControls } from './message-branches';
import { BusyElsewhereNote, OfflineNote, OtherTabNote } from './offline-note';
import { useIsOnline } from '../../hooks/use-online';
import type { ToolProgress } from '../../../domain/tool-result';
import { useThreadShape } from './use-thread-shape';
import { LazyThreadPane } from './lazy-thread-pane';
import type { McpAppsActions, McpAppsStore } from '../../../stores/mcp-apps';
import type { PendingSampling, SamplingRequests } from '../../../stores/sampling-requests';
import { usePromptDock, type PromptsHandle } from './prompt-dock';
import { useFocusAfterAnswer } from './use-focus-after-answer';
import { useFocusOnNewThread } from './use-focus-on-new-thread';
import { wasTap } from '../../hooks/last-input';
import './chat.css';

// Stable values while the stores do not exist yet.
const NO_THREADS: readonly ThreadConfig[] = [];
const NO_MESSAGES: readonly Message[] = [];
const NO_COMPACTIONS: readonly ContextCompaction[] = [];
const NO_VERSIONS: ReadonlyMap<string, readonly string[]> = new Map();
const NO_APPROVALS: readonly PendingApproval[] = [];
const NO_SERVERS: readonly ServerView[] = [];
const NO_ELICITATIONS: readonly PendingElicitation[] = [];
const NO_REFUSALS: readonly RefusedElicitation[] = [];
const NO_PROGRESS: Readonly<Record<string, ToolProgress>> = {};
const NO_SAMPLINGS: readonly PendingSampling[] = [];

export interface ChatViewProps {
  /** The chat, once start-up is done; before, only the composer shows, taking typing into the draft. */
  readonly chat?: ChatStore | undefined;
  readonly actions?: ChatActions | undefined;
  readonly servers?: ServersStore | undefined;
  readonly draft: DraftStore;
  /** The composer's attachments. */
  readonly attachments: AttachmentDraftHandle;
  /** Servers' questions to the person (elicitation). */
  readonly serverRequests?: ServerRequests | undefined;
  /** MCP Apps (issue #21); absent when they are off (tool results show plain). */
  readonly mcpApps?: { readonly store: McpAppsStore; readonly actions: McpAppsActions } | undefined;
  /** Servers' requests to run the model (sampling). */
  readonly samplingRequests?: SamplingRequests | undefined;
  /** The `/` prompts of the thread's servers. */
  readonly prompts?: PromptsHandle | undefined;
  /** No API key is saved yet: Send keeps the message and asks for the key (`onNeedsApiKey` shows its field). */
  readonly needsApiKey?: boolean | undefined;
  readonly onNeedsApiKey?: (() => void) | undefined;
}

/** Server names by id, from `JSON.stringify` of `[id, name]` pairs (a key that stays equal while no name changes). */
function namesOf(key: string): ReadonlyMap<string, string> {
  return new Map(JSON.parse(key) as [string, string][]);
}

/**
 * The open thread: its header, messages and pending approvals (a chunk of their own, `thread-pane.tsx`), then the
 * composer (the same one from the first frame on). The composer is docked at the bottom of the main column, outside the chat, so that it stays in view whatever
 * is open above the chat (Servers, Settings, the thread's settings), on a phone too.
 */
export function ChatView({
  chat,
  actions,
  servers,
  draft,
  attachments,
  serverRequests,
  mcpApps,
  samplingRequests,
  prompts,
  needsApiKey = false,
  onNeedsApiKey,
}: ChatViewProps) {
  const attachmentCount = useStore(attachments.store, (s) => s.items.length);
  const isReadingFiles = useStore(attachments.store, (s) => (s.reading ?? 0) > 0);
  const resources = useContext(ResourceActionsContext);
  const [template, setTemplate] = useState<{ serverId: string; uriTemplate: string }>();
  // Re-rendered when a listing arrives, so the `@` list shows the resources.
  useStoreIfAny(resources?.store, (s) => s.listings, undefined);
  const allElicitations = useStoreIfAny(serverRequests?.store, (s) => s.elicitations, NO_ELICITATIONS);
  const samplings = useStoreIfAny(samplingRequests?.store, (s) => s.samplings, NO_SAMPLINGS);
  const refused = useStoreIfAny(serverRequests?.store, (s) => s.refused, NO_REFUSALS);
  const activeId = useStoreIfAny(chat, (s) => s.activeThreadId, undefined);
  // A server's question shows only in the thread whose call it came during (one outside any call is declined).
  const elicitations = useMemo(
    () => allElicitations.filter((e) => e.threadId === activeId),
    [allElicitations, activeId],
  );
  // What waits for the person here, for screen readers: questions, and model calls to approve.
  const asks = useMemo(
    () => [
      ...elicitations.map((e) => ({ id: e.id, text: `${e.serverName} asks you: ${oneLine(e.message)}` })),
      ...samplings
        .filter((r) => r.threadId === activeId && r.stage.kind === 'review' && !r.allowedForThread)
        .map((r) => ({ id: r.id, text: `${r.serverName} asks to run the model; it waits for your approval.` })),
    ],
    [elicitations, samplings, activeId],
  );
  const threads = useStoreIfAny(chat, (s) => s.threads, NO_THREADS);
  const messages = useStoreIfAny(chat, (s) => s.messages, NO_MESSAGES);
  const compactions = useStoreIfAny(chat, (s) => s.compactions, NO_COMPACTIONS);
  const versions = useStoreIfAny(chat, (s) => s.versions, NO_VERSIONS);
  const offBranch = useStoreIfAny(chat, (s) => s.offBranch, NO_MESSAGES);
  const isRunning = useStoreIfAny(chat, (s) => s.isRunning, false);
  const runningThreadId = useStoreIfAny(chat, (s) => s.runningThreadId, undefined);
  const approvals = useStoreIfAny(chat, (s) => s.pendingApprovals, NO_APPROVALS);
  const toolProgress = useStoreIfAny(chat, (s) => s.toolProgress, NO_PROGRESS);
  const modelWait = useStoreIfAny(chat, (s) => s.modelWait, undefined);
  const reveal = useStoreIfAny(chat, (s) => s.reveal, undefined);
  const serverViews = useStoreIfAny(servers, (s) => s.servers, NO_SERVERS);
  const thread = threads.find((t) => t.id === activeId);
  // Another thread's answer is being written (one at a time in a tab); that thread may be out of the list already
  // (deleted while its turn ends).
  const isBusyElsewhere = isRunning && runningThreadId !== undefined && runningThreadId !== activeId;
  const isRunningHere = isRunning && !isBusyElsewhere;
  const busyThread = isBusyElsewhere ? threads.find((t) => t.id === runningThreadId) : undefined;
  // Another tab writes this thread's answer: Send waits for it here too.
  const answeringElsewhere = useStoreIfAny(chat, (s) => s.answeringElsewhere, undefined);
  const isAnsweredInOtherTab = answeringElsewhere !== undefined && answeringElsewhere === activeId && !isRunningHere;
  const awaitingElsewhereList = useStoreIfAny(chat, (s) => s.awaitingElsewhere, undefined);
  const awaitingElsewhere = useMemo(
    () => new Set(isAnsweredInOtherTab ? (awaitingElsewhereList ?? []) : []),
    [isAnsweredInOtherTab, awaitingElsewhereList],
  );
  // The running turn's approvals and waits are that thread's: shown there, not here.
  const shownApprovals = isBusyElsewhere ? NO_APPROVALS : approvals;
  const threadServers = thread?.enabledServerIds.join(' ');
  // The open thread's servers' resources are listed for the `@` list.
  useEffect(() => {
    if (threadServers !== undefined) resources?.loadThreadServers();
  }, [resources, threadServers]);
  const templateInfo = template && resources?.templateOf(template.serverId, template.uriTemplate);
  const composerBox = useRef<HTMLTextAreaElement>(null);
  const shape = useThreadShape(messages); // A streamed delta adds no tokens: the totals come with the finished message.
  // Every branch's model calls were made and paid for: the thread's total counts them all.
  const totals = useMemo(() => threadTokenTotals([...offBranch, ...shape]), [offBranch, shape]);
  const branches = useMemo<BranchControls | undefined>(
    () =>
      actions && {
        versions,
        onShowVersion: (id) => void actions.showVersion(id),
        onEdit: (id, text, keptAttachmentIds) => {
          // The editor goes as the edited turn starts: focus goes to the box rather than to the page.
          if (!wasTap()) composerBox.current?.focus();
          void actions.editMessage(id, text, keptAttachmentIds);
        },
        onRegenerate: (id) => {
          // Regenerate's button goes while the answer runs: focus goes to the box rather than to the page.
          if (!wasTap()) composerBox.current?.focus();
          void actions.regenerate(id);
        },
      },
    [actions, versions],
  );
  // The same Map while no name changes: every registry event (a status, a log line, a server's tools) brings new
  // server views, and a new Map would draw every message again.
  const namesKey = JSON.stringify(serverViews.map((s) => [s.id, s.name]));
  const serverNames = useMemo(() => namesOf(namesKey), [namesKey]);
  const awaitingIds = useMemo(() => new Set(shownApprovals.map((a) => a.toolUseId)), [shownApprovals]);
  const isThinking = isRunningHere && shownApprovals.length === 0 && isAwaitingModel(messages);
  const promptDock = usePromptDock(
    prompts,
    thread?.id,
    thread?.enabledServerIds,
    serverViews,
    draft,
    composerBox,
    isRunning || isAnsweredInOtherTab,
  );
  const isOnline = useIsOnline();
  // Retry's button goes away with the error, so keyboard focus would fall to the page: it goes to the message box.
  // Not after a tap or click: on a phone, focusing the box would raise the keyboard over the answer coming in.
  const [requestsDock, setRequestsDock] = useState<HTMLDivElement | null>(null);
  useFocusAfterAnswer(requestsDock, composerBox);
  useFocusOnNewThread(composerBox);
  const retry = (byKeyboard: boolean) => {
    if (byKeyboard) composerBox.current?.focus();
    void actions?.retry();
  };
  return (
    <>
      <section className="chat" aria-label="Chat">
        {thread && actions ? (
          <LazyThreadPane
            thread={thread}
            actions={actions}
            totals={totals}
            servers={serverViews}
            serverNames={serverNames}
            messages={messages}
            compactions={compactions}
            awaitingIds={awaitingIds}
            awaitingElsewhere={awaitingElsewhere}
            // That tab's turn runs here too: its calls are not "not run", and nothing here starts a second turn.
            isRunning={isRunning || isAnsweredInOtherTab}
            isThinking={isThinking}
            {...(isBusyElsewhere ? {} : { modelWait })}
            branches={branches}
            reveal={reveal}
            onRetry={retry}
            toolProgress={toolProgress}
            mcpApps={mcpApps}
            approvals={shownApprovals}
            elicitations={elicitations}
            // A note of a request declined during a turn shows in that turn's thread only.
            refused={refused.filter((r) => r.threadId === activeId)}
            onDismissRefusal={(id) => serverRequests?.dismissRefusal(id)}
            samplingRequests={samplingRequests}
            onRequestsDock={setRequestsDock}
          />
        ) : (
          <p className="empty muted">{actions ? 'Ask anything below to start a new thread.' : ''}</p>
        )}
        <ChatAnnouncer
          threadId={activeId}
          isRunning={isRunningHere}
          messages={messages}
          approvals={shownApprovals}
          asks={asks}
        />
      </section>
      <div className="composer-dock">
        {!isOnline && <OfflineNote />}
        {isAnsweredInOtherTab && <OtherTabNote isAwaitingApproval={awaitingElsewhere.size > 0} />}
        {isBusyElsewhere && actions && (
          <BusyElsewhereNote
            {...(busyThread ? { title: busyThread.title, onOpen: () => void actions.openThread(busyThread.id) } : {})}
            isAwaitingApproval={approvals.length > 0}
            isAwaitingAnswer={allElicitations.some((e) => e.threadId !== undefined && e.threadId === runningThreadId)}
          />
        )}
        <AttachmentZone draft={attachments}>
          {template && templateInfo && resources && (
            <ResourceTemplateForm
              actions={resources}
              serverId={template.serverId}
              template={templateInfo}
              onDone={() => {
                setTemplate(undefined);
                composerBox.current?.focus();
              }}
            />
          )}
          {promptDock.form}
          <Composer
            draft={draft}
            // Stop only in the thread whose answer runs.
            isRunning={isRunningHere}
            // Files still being read (a large photo made smaller) would miss the message: Send waits for them.
            isSendHeld={actions === undefined || !isOnline || isReadingFiles}
            isSendPaused={isBusyElsewhere || isAnsweredInOtherTab}
            onSend={(text) =>
              void (chat && actions && sendWithAttachments(actions, chat, draft, attachments.store, text))
            }
            onStop={() => {
              // Stop's button goes with the turn (Send takes its place, disabled while the box is empty): focus
              // would fall to the page. Not after a tap, which would raise a phone's keyboard.
              if (!wasTap()) composerBox.current?.focus();
              actions?.stop();
            }}
            mentionOptions={(query) => [
              ...(actions?.mentionOptions(query) ?? []),
              ...(resources?.mentionOptions(query) ?? []),
            ]}
            onPickResource={(option) => {
              const picked = option.resource;
              if (!picked || !resources) return;
              if (option.kind === 'template') setTemplate({ serverId: picked.serverId, uriTemplate: picked.uri });
              else void resources.attach(picked.serverId, picked.uri, picked.name);
            }}
            boxRef={composerBox}
            {...(promptDock.slashMenu ? { slashMenu: promptDock.slashMenu } : {})}
            hasAttachments={attachmentCount > 0}
            extraButtons={<AttachButton draft={attachments} />}
            needsApiKey={needsApiKey}
            onNeedsApiKey={onNeedsApiKey}
          />
        </AttachmentZone>
      </div>
    </>
  );
}

/** A server's message on one line, cut for a screen reader's announcement (the card holds all of it). */
const oneLine = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
};
