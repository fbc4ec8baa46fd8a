import type { ChatActions, ChatStore } from '../../../stores/chat-store';
import type { ServersStore } from '../../../stores/servers-store';
import { useStore } from '../../hooks/use-store';
import { ThreadServers } from '../threads/thread-servers';
import { ApprovalCard } from './approval-card';
import { Composer } from './composer';
import { MessageList } from './message-list';
import { ThreadSettingsForm } from './thread-settings';

/** The open thread: its servers, messages, pending approvals and the composer. */
export function ChatView({ chat, actions, servers }: { chat: ChatStore; actions: ChatActions; servers: ServersStore }) {
  const activeId = useStore(chat, (s) => s.activeThreadId);
  const threads = useStore(chat, (s) => s.threads);
  const messages = useStore(chat, (s) => s.messages);
  const isRunning = useStore(chat, (s) => s.isRunning);
  const approvals = useStore(chat, (s) => s.pendingApprovals);
  const serverViews = useStore(servers, (s) => s.servers);
  const thread = threads.find((t) => t.id === activeId);
  return (
    <section className="chat" aria-label="Chat">
      {thread ? (
        <>
          <header className="chat-header">
            <div className="chat-title">
              <h2>{thread.title}</h2>
              <button type="button" className="secondary small" onClick={() => download(actions.exportThread('markdown'))}>
                Export Markdown
              </button>
              <button type="button" className="secondary small" onClick={() => download(actions.exportThread('json'))}>
                Export JSON
              </button>
            </div>
            <ThreadSettingsForm key={thread.id} thread={thread} onSave={(settings) => actions.updateThreadSettings(thread.id, settings)} />
            <ThreadServers servers={serverViews} enabledIds={thread.enabledServerIds} onChange={(ids) => void actions.setThreadServers(thread.id, ids)} />
          </header>
          <MessageList messages={messages} />
          {approvals.map((approval) => (
            <ApprovalCard key={approval.toolUseId} approval={approval} />
          ))}
        </>
      ) : (
        <p className="empty muted">Start a new thread to chat.</p>
      )}
      <Composer isRunning={isRunning} isDisabled={!thread} onSend={(text) => void actions.send(text)} onStop={() => actions.stop()} />
    </section>
  );
}

/** Saves an export as a file in the person's downloads. */
function download(file: ReturnType<ChatActions['exportThread']>): void {
  if (!file) return;
  const url = URL.createObjectURL(new Blob([file.text], { type: file.type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
