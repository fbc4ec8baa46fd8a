import { useEffect, useMemo, useRef, useState } from 'react';
import type { AppUpdates } from '../../../domain/app-shell';
import type { AppStore } from '../../../stores/app-store';
import type { ServerForm } from '../../../stores/server-form';
import { Notice } from '../../components/notice';
import { PanelFocusRequest } from '../../components/panel-heading';
import { useStore, useStoreIfAny } from '../../hooks/use-store';
import { ChatView } from '../chat/chat-view';
import { MESSAGE_BOX_ID } from '../chat/composer';
import { useApplyTheme } from '../settings/use-theme';
import { LazyThreadsSidebar } from '../threads/lazy-threads-sidebar';
import { SidebarPlaceholder } from './sidebar-placeholder';
import { LazyPanel, ServersPanel, SettingsPanel } from './lazy-panels';
import { PanelFrame } from './panel-frame';
import { useSettingsDraft } from './settings-draft';
import { StartupNotices } from './startup-notices';
import { UpdateNote } from './update-note';
import { VaultLockBar } from './vault-lock-bar';
import { ResourceActionsContext } from '../resources/resource-context';

type Panel = 'none' | 'servers' | 'settings';

/** The frame of the app: header, threads, the chat, and the Servers and Settings panels; the message box from the first frame on. */
export function AppShell({ store, updates }: { store: AppStore; updates?: AppUpdates | undefined }) {
  const phase = useStore(store, (s) => s.phase);
  const fatal = useStore(store, (s) => s.fatal);
  const profile = useStore(store, (s) => s.profile);
  const servers = useStore(store, (s) => s.servers);
  const serverActions = useStore(store, (s) => s.serverActions);
  const directory = useStore(store, (s) => s.directory);
  const chat = useStore(store, (s) => s.chat);
  const chatActions = useStore(store, (s) => s.chatActions);
  const serverRequests = useStore(store, (s) => s.serverRequests);
  const mcpApps = useStore(store, (s) => s.mcpApps);
  const samplingRequests = useStore(store, (s) => s.samplingRequests);
  const prompts = useStore(store, (s) => s.prompts);
  const isMcpAppsOn = useStore(store, (s) => s.profile?.preferences.mcpApps !== false);
  const settings = useStore(store, (s) => s.settings);
  const needsApiKey = useStore(store, (s) => s.needsApiKey);
  const draft = useStore(store, (s) => s.draft);
  const attachments = useStore(store, (s) => s.attachments);
  const resources = useStore(store, (s) => s.resources);
  const vaultActions = useStore(store, (s) => s.vaultActions);
  const vaultKind = useStoreIfAny(
    useStore(store, (s) => s.vaultLock),
    (s) => s.status?.kind,
    undefined,
  );
  useIdleActivity(vaultActions);
  const isTurnRunning = useStoreIfAny(chat, (s) => s.isRunning, false);
  const ready =
    phase === 'ready' && chat && chatActions && servers && serverActions && settings
      ? { chat, actions: chatActions, servers, serverActions, directory }
      : undefined;
  const [panel, setPanel] = useState<Panel>('none');
  // What was typed in Servers' add form, kept while the panel is closed, for the profile it was typed in: without its
  // secrets (a locked vault still shows Servers), and in a ref, since only the panel's next opening reads it.
  const serverDraft = useRef<{ readonly owner: unknown; readonly form: ServerForm }>(undefined);
  const serverDraftAccess = useMemo(
    () => ({
      read: () => {
        const draft = serverDraft.current;
        return draft && draft.owner === servers ? draft.form : undefined;
      },
      onChange: (form: ServerForm) => {
        serverDraft.current = { owner: servers, form };
      },
    }),
    [servers],
  );
  const settingsDraft = useSettingsDraft(settings, vaultKind === 'locked');
  const isSettingsForced = needsApiKey && panel === 'none'; // First run: Settings stays until a key is saved.
  const shown: Panel = isSettingsForced ? 'settings' : panel;
  // A panel the person opens takes the focus into its heading (PanelHeading), once.
  const focusRequest = useRef(false);
  const panelFocus = useMemo(
    () => ({
      take: () => {
        const isAsked = focusRequest.current;
        focusRequest.current = false;
        return isAsked;
      },
    }),
    [],
  );
  // Lock goes once pressed: the lock bar's title takes the focus, rather than the page.
  const lockFocus = useRef(false);
  const takeLockFocus = () => {
    const isAsked = lockFocus.current;
    lockFocus.current = false;
    return isAsked;
  };
  // Unlocked from the lock bar, which goes: the Lock button that comes back takes the focus, once.
  const unlockFocus = useRef(false);
  const focusAfterUnlock = useMemo(
    () => ({ ask: () => (unlockFocus.current = true), refused: () => (unlockFocus.current = false) }),
    [],
  );
  const toggle = (next: Panel) => {
    focusRequest.current = shown !== next && ready !== undefined; // Not a panel that shows once storage opens.
    setPanel(shown === next ? 'none' : next);
  };
  const serversButton = useRef<HTMLButtonElement>(null);
  const settingsButton = useRef<HTMLButtonElement>(null);
  // Close and Escape: focus goes back to the button that opens the panel, not to the page.
  const close = () => {
    (shown === 'servers' ? serversButton : settingsButton).current?.focus();
    setPanel('none');
  };
  const onClose = isSettingsForced ? undefined : close;
  // The person going back to the chat (opening or starting a thread, sending) closes the panel over it, so the answer
  // shows; a thread another tab deleted or brought back leaves it as it is.
  const goToChat = () => setPanel('none');
  // Send pressed with no key saved: Settings (which stays until then) comes back in place of Servers, with its key field.
  const [keyFocusRequest, setKeyFocusRequest] = useState(0);
  const askForApiKey = () => {
    setPanel('none');
    setKeyFocusRequest((n) => n + 1);
  };
  useEffect(
    () =>
      chat?.subscribe((now, before) => {
        if (now.isRunning && !before.isRunning) setPanel('none');
      }),
    [chat],
  );
  useApplyTheme(profile?.preferences.theme);

  return (
    <ResourceActionsContext.Provider value={resources}>
      <PanelFocusRequest.Provider value={panelFocus}>
        <div className="shell">
          {/* The first stop of Tab: past the header and every thread of the list, straight to the message box. */}
          <button type="button" className="skip-link" onClick={() => document.getElementById(MESSAGE_BOX_ID)?.focus()}>
            Skip to the message box
          </button>
          <header className="shell-header">
            <h1>MCP Agent</h1>
            {profile && <span className="profile">Profile: {profile.name}</span>}
            <span className="spacer" />
            {vaultActions && vaultKind === 'unlocked' && (
              <button
                type="button"
                className="secondary"
                ref={(element) => {
                  if (!element || !unlockFocus.current) return;
                  unlockFocus.current = false;
                  element.focus();
                }}
                onClick={() => {
                  lockFocus.current = true;
                  // A lock that failed shows no bar: the request must not wait for a later one (an idle lock).
                  void vaultActions.lock().then((errors) => {
                    if (Object.keys(errors).length > 0) lockFocus.current = false;
                  });
                }}
              >
                Lock
              </button>
            )}
            <button
              type="button"
              className="secondary"
              ref={serversButton}
              aria-pressed={shown === 'servers'}
              onClick={() => toggle('servers')}
            >
              Servers
            </button>
            <button
              type="button"
              className="secondary"
              ref={settingsButton}
              aria-pressed={shown === 'settings'}
              onClick={() => toggle('settings')}
            >
              Settings
            </button>
          </header>
          <div className="layout">
            {ready ? (
              <LazyThreadsSidebar chat={ready.chat} actions={ready.actions} onGoToChat={goToChat} />
            ) : (
              <SidebarPlaceholder />
            )}
            <main className="main">
              {phase === 'starting' && (
                <p role="status" className="starting">
                  Opening local storage…
                </p>
              )}
              {phase === 'failed' && (
                <Notice tone="error" title="The app cannot start">
                  <p>{fatal}</p>
                </Notice>
              )}
              <UpdateNote updates={updates} isBusy={isTurnRunning} />
              {ready && <StartupNotices store={store} />}
              {ready && vaultActions && vaultKind === 'locked' && (
                <VaultLockBar actions={vaultActions} takeFocus={takeLockFocus} focusAfterUnlock={focusAfterUnlock} />
              )}
              {ready && shown !== 'none' && (
                <PanelFrame onClose={onClose}>
                  {shown === 'servers' ? (
                    <LazyPanel key="servers" name="Servers">
                      <ServersPanel
                        store={ready.servers}
                        actions={ready.serverActions}
                        directory={ready.directory}
                        onClose={onClose}
                        addDraft={serverDraftAccess}
                      />
                    </LazyPanel>
                  ) : (
                    <LazyPanel key="settings" name="Settings">
                      <SettingsPanel
                        store={store}
                        onClose={onClose}
                        draft={settingsDraft}
                        keyFocusRequest={needsApiKey ? keyFocusRequest : 0}
                        onSaved={() => {
                          // Stay open to show it was saved, also on first run; but a panel the person opened meanwhile stays.
                          setPanel((current) => (current === 'none' ? 'settings' : current));
                          store.setState({ needsApiKey: false });
                        }}
                      />
                    </LazyPanel>
                  )}
                </PanelFrame>
              )}
              {/* Always at this place, so the box typed into while storage opened stays the same element (and focus). */}
              <ChatView
                draft={draft}
                attachments={attachments}
                chat={ready?.chat}
                actions={ready?.actions}
                servers={ready?.servers}
                serverRequests={ready ? serverRequests : undefined}
                samplingRequests={ready ? samplingRequests : undefined}
                prompts={ready ? prompts : undefined}
                mcpApps={ready && isMcpAppsOn ? mcpApps : undefined}
                needsApiKey={needsApiKey === true}
                onNeedsApiKey={askForApiKey}
              />
            </main>
          </div>
        </div>
      </PanelFocusRequest.Provider>
    </ResourceActionsContext.Provider>
  );
}

/** Typing, clicking and touching in the page count as activity for the vault's idle lock. */
function useIdleActivity(actions: { noteActivity: () => void } | undefined) {
  useEffect(() => {
    if (!actions) return;
    const note = () => actions.noteActivity();
    const events = ['keydown', 'pointerdown', 'wheel'] as const;
    for (const name of events) window.addEventListener(name, note, { passive: true, capture: true });
    return () => {
      for (const name of events) window.removeEventListener(name, note, { capture: true });
    };
  }, [actions]);
}
