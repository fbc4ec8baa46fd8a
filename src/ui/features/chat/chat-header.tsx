import { useId, useRef, useState, type KeyboardEvent } from 'react';
import type { ThreadConfig } from '../../../domain/thread-config';
import type { ChatActions } from '../../../stores/chat-store';
import type { ServerView } from '../../../stores/servers-store';
import type { TokenTotals } from '../../../stores/token-totals';
import { escapeCloses } from '../../components/escape-key';
import { saveFile } from '../../components/save-file';
import { ThreadServers } from '../threads/thread-servers';
import { ThreadSettingsForm } from './thread-settings';
import { ServerInstructionsSection } from './server-instructions';
import { ThreadPinnedTools } from './thread-pinned-tools';
import { ThreadSamplingAllowed } from './thread-sampling-allowed';
import { ThreadTokenTotal } from './token-total';
import './chat-header.css';

/**
 * The open thread's header, kept to a line so the messages get the height: the title, the token total and a
 * "Thread menu" button that opens the exports, settings, pinned tools, sampling and server instructions (in a panel
 * of its own height at most, scrolling inside). The thread's servers stay on a compact line under it; on a phone they
 * fold into the menu too. Escape in the open menu (or on its button) closes it and puts focus back on the button,
 * unless it comes from a text field with text in it, such as a half-written system prompt.
 */
export function ChatHeader({
  thread,
  totals,
  servers,
  actions,
  isRunning = false,
}: {
  thread: ThreadConfig;
  totals: TokenTotals;
  servers: readonly ServerView[];
  actions: ChatActions;
  /** A turn runs in this thread: the menu closes as it starts, so the answer shows (as Servers and Settings do). */
  isRunning?: boolean;
}) {
  const [isMenuOpen, setMenuOpen] = useState(false);
  // Closed as a turn starts (adjusted while rendering, as React advises for state that follows a prop).
  const [wasRunning, setWasRunning] = useState(isRunning);
  if (isRunning !== wasRunning) {
    setWasRunning(isRunning);
    if (isRunning) setMenuOpen(false);
  }
  const menuId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const onKeyDown = (event: KeyboardEvent) => {
    if (!isMenuOpen || !escapeCloses(event)) return;
    event.preventDefault();
    setMenuOpen(false);
    toggle.current?.focus();
  };
  return (
    <header className={isMenuOpen ? 'chat-header is-menu-open' : 'chat-header'} onKeyDown={onKeyDown}>
      <div className="chat-title">
        <h2 title={thread.title}>{thread.title}</h2>
        <ThreadTokenTotal totals={totals} />
        <button
          ref={toggle}
          type="button"
          className="secondary small thread-menu-toggle"
          aria-expanded={isMenuOpen}
          aria-controls={menuId}
          onClick={() => setMenuOpen(!isMenuOpen)}
          aria-label="Thread menu"
        >
          {/* On a phone it reads "Menu", leaving the thread's title the width; its name stays "Thread menu". */}
          <span className="thread-menu-long">Thread menu</span>
          <span className="thread-menu-short">Menu</span>
        </button>
      </div>
      <div className="chat-header-more" id={menuId} hidden={!isMenuOpen}>
        <div className="chat-exports">
          <button type="button" className="secondary small" onClick={() => download(actions.exportThread('markdown'))}>
            Export Markdown
          </button>
          <button type="button" className="secondary small" onClick={() => download(actions.exportThread('json'))}>
            Export JSON
          </button>
        </div>
        <ThreadSettingsForm
          key={thread.id}
          thread={thread}
          onSave={(settings) => actions.updateThreadSettings(thread.id, settings)}
          listModels={actions.modelChoices}
        />
        <ThreadPinnedTools key={`pins-${thread.id}`} thread={thread} servers={servers} actions={actions} />
        <ThreadSamplingAllowed thread={thread} servers={servers} actions={actions} />
        <ServerInstructionsSection
          servers={servers.filter((s) => thread.enabledServerIds.includes(s.id))}
          offIds={thread.instructionsOff ?? []}
          onChange={(serverId, isOn) => void actions.setServerInstructions(thread.id, serverId, isOn)}
        />
      </div>
      <ThreadServers
        servers={servers}
        enabledIds={thread.enabledServerIds}
        onChange={(ids) => void actions.setThreadServers(thread.id, ids)}
      />
    </header>
  );
}

/** Saves a thread export (none when no thread is open) in the person's downloads. */
function download(file: ReturnType<ChatActions['exportThread']>): void {
  if (file) saveFile(file);
}
