import { useState } from 'react';
import type { AppStore } from '../../../stores/app-store';
import { Notice } from '../../components/notice';
import { useStore } from '../../hooks/use-store';
import { ChatView } from '../chat/chat-view';
import { useApplyTheme } from '../settings/use-theme';
import { ThreadsSidebar } from '../threads/threads-sidebar';
import { SidebarPlaceholder } from './sidebar-placeholder';
import { LazyPanel, ServersPanel, SettingsPanel } from './lazy-panels';
import { StartupNotices } from './startup-notices';

type Panel = 'none' | 'servers' | 'settings';

/** The frame of the app: header, threads, the chat, and the Servers and Settings panels; the message box from the first frame on. */
export function AppShell({ store }: { store: AppStore }) {
  const phase = useStore(store, (s) => s.phase);
  const fatal = useStore(store, (s) => s.fatal);
  const profile = useStore(store, (s) => s.profile);
  const servers = useStore(store, (s) => s.servers);
  const serverActions = useStore(store, (s) => s.serverActions);
  const chat = useStore(store, (s) => s.chat);
  const chatActions = useStore(store, (s) => s.chatActions);
  const settings = useStore(store, (s) => s.settings);
  const needsApiKey = useStore(store, (s) => s.needsApiKey);
  const draft = useStore(store, (s) => s.draft);
  const ready = phase === 'ready' && chat && chatActions && servers && serverActions && settings ? { chat, actions: chatActions, servers, serverActions } : undefined;
  const [panel, setPanel] = useState<Panel>('none');
  const shown: Panel = needsApiKey && panel === 'none' ? 'settings' : panel;
  const toggle = (next: Panel) => setPanel(shown === next ? 'none' : next);
  useApplyTheme(profile?.preferences.theme);

  return (
    <div className="shell">
      <header className="shell-header">
        <h1>MCP Agent</h1>
        {profile && <span className="profile">Profile: {profile.name}</span>}
        <span className="spacer" />
        <button type="button" className="secondary" aria-pressed={shown === 'servers'} onClick={() => toggle('servers')}>
          Servers
        </button>
        <button type="button" className="secondary" aria-pressed={shown === 'settings'} onClick={() => toggle('settings')}>
          Settings
        </button>
      </header>
      <div className="layout">
        {ready ? <ThreadsSidebar chat={ready.chat} actions={ready.actions} /> : <SidebarPlaceholder />}
        <main className="main">
          {phase === 'starting' && <p role="status" className="starting">Opening local storage…</p>}
          {phase === 'failed' && (
            <Notice tone="error" title="The app cannot start">
              <p>{fatal}</p>
            </Notice>
          )}
          {ready && <StartupNotices store={store} />}
          {ready && shown === 'servers' && <LazyPanel name="Servers"><ServersPanel store={ready.servers} actions={ready.serverActions} /></LazyPanel>}
          {ready && shown === 'settings' && <LazyPanel name="Settings"><SettingsPanel store={store} onSaved={() => {
                setPanel('settings'); // Stay open to show it was saved, also on first run.
                store.setState({ needsApiKey: false });
              }}
            /></LazyPanel>}
          {/* Always at this place, so the box typed into while storage opened stays the same element (and focus). */}
          <ChatView draft={draft} chat={ready?.chat} actions={ready?.actions} servers={ready?.servers} />
        </main>
      </div>
    </div>
  );
}
