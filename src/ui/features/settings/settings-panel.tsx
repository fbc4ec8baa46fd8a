import { useState } from 'react';
import type { AppStore } from '../../../stores/app-store';
import { PanelHeading } from '../../components/panel-heading';
import { useStore, useStoreIfAny } from '../../hooks/use-store';
import { AlwaysAllowedSection } from './always-allowed-section';
import { ConfigSection } from './config-section';
import { LimitsSection } from './limits-section';
import { ModelSettingsForm, type ModelSettingsFormProps } from './model-settings-form';
import { PassphraseSection } from './passphrase-section';
import { ProfilesSection } from './profiles-section';
import { RelaySection } from './relay-section';
import { ThemeSection } from './theme-section';
import { ThreadsBackupSection } from './threads-backup-section';
import { McpAppsSection } from './mcp-apps-section';
import './settings.css';

export interface SettingsPanelProps {
  readonly store: AppStore;
  /** After a successful Save (the first one dismisses the first-run prompt). */
  readonly onSaved: () => void;
  /** Absent while Settings cannot be closed (first run, no key yet). */
  readonly onClose?: (() => void) | undefined;
  /** Where the model form keeps what is typed while the panel is closed. */
  readonly draft?: ModelSettingsFormProps['draft'];
  /** Raised when the API key field is wanted: it is brought into view and focused. */
  readonly keyFocusRequest?: number;
}

/** The Settings screen: model and tool search, appearance, profiles, and the configuration file. */
export function SettingsPanel({ store, onSaved, onClose, draft, keyFocusRequest }: SettingsPanelProps) {
  const actions = useStore(store, (s) => s.settings);
  const theme = useStore(store, (s) => s.profile?.preferences.theme ?? 'system');
  const isMcpAppsOn = useStore(store, (s) => s.profile?.preferences.mcpApps !== false);
  // An import, or a Save in another tab, may change the model and tool-search settings: the form reloads them, so a
  // Save here never writes stale ones back. (The theme is left out: picking one must not reset what is being typed.)
  const stored = useStore(store, (s) => {
    const prefs = s.profile?.preferences;
    return JSON.stringify([prefs?.baseUrl, prefs?.model, prefs?.toolSearch]);
  });
  const [imports, setImports] = useState(0);
  const vaultActions = useStore(store, (s) => s.vaultActions);
  const vaultStatus = useStoreIfAny(
    useStore(store, (s) => s.vaultLock),
    (s) => s.status,
    undefined,
  );
  if (!actions) return null;
  return (
    <section className="settings-screen" aria-labelledby="settings-heading">
      <PanelHeading id="settings-heading" title="Settings" onClose={onClose} />
      <div className="settings-columns">
        <ModelSettingsForm
          actions={actions}
          onSaved={onSaved}
          revision={`${imports}:${stored}`}
          isLocked={vaultStatus?.kind === 'locked'}
          keyFocusRequest={keyFocusRequest}
          {...(draft ? { draft } : {})}
        />
        <div className="settings-stack">
          {vaultActions && <PassphraseSection status={vaultStatus} actions={vaultActions} />}
          <ThemeSection theme={theme} setTheme={(theme) => actions.profiles.setTheme(theme)} />
          <McpAppsSection isOn={isMcpAppsOn} setOn={(isOn) => actions.profiles.setMcpApps(isOn)} />
          <ProfilesSection actions={actions.profiles} />
          <RelaySection actions={actions} />
          <AlwaysAllowedSection actions={actions} />
          <LimitsSection actions={actions} />
          <ConfigSection actions={actions} onImported={() => setImports((n) => n + 1)} />
          <ThreadsBackupSection actions={actions} />
        </div>
      </div>
    </section>
  );
}
