import type { AppStore } from '../../../stores/app-store';
import { Notice } from '../../components/notice';
import { useStore } from '../../hooks/use-store';
import { ServersPanel } from '../servers/servers-panel';

/** The frame of the app: start-up state, configuration problems, and (later) threads and chat. */
export function AppShell({ store }: { store: AppStore }) {
  const phase = useStore(store, (s) => s.phase);
  const fatal = useStore(store, (s) => s.fatal);
  const appConfig = useStore(store, (s) => s.appConfig);
  const profile = useStore(store, (s) => s.profile);
  const servers = useStore(store, (s) => s.servers);
  const serverActions = useStore(store, (s) => s.serverActions);
  const serverProblems = useStore(store, (s) => s.serverProblems);

  return (
    <div className="shell">
      <header className="shell-header">
        <h1>MCP Agent</h1>
        {profile && <span className="profile">Profile: {profile.name}</span>}
      </header>
      <main className="shell-main">
        {phase === 'starting' && <p role="status">Opening local storage…</p>}
        {phase === 'failed' && (
          <Notice tone="error" title="The app cannot start">
            <p>{fatal}</p>
          </Notice>
        )}
        {appConfig?.error && (
          <Notice tone="warning" title="The deployment's app-config.json is invalid; running without app servers">
            <ul>
              {appConfig.error.issues.map((issue) => (
                <li key={`${issue.path}:${issue.message}`}>
                  {issue.path && <code>{issue.path}</code>} {issue.message}
                </li>
              ))}
            </ul>
          </Notice>
        )}
        {appConfig?.notice && <Notice tone="info" title={appConfig.notice} />}
        {serverProblems.length > 0 && (
          <Notice tone="warning" title="Some servers need attention">
            <ul>
              {serverProblems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </Notice>
        )}
        {phase === 'ready' && (
          <section className="welcome">
            <h2>Ready</h2>
            <p>Your conversations, servers and keys are kept in this browser only, with credentials encrypted at rest.</p>
          </section>
        )}
        {servers && serverActions && <ServersPanel store={servers} actions={serverActions} />}
      </main>
    </div>
  );
}
