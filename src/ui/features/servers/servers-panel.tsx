import type { ServerActions, ServersStore, ServerView } from '../../../stores/servers-store';
import { useStore } from '../../hooks/use-store';
import { AddServerForm } from './add-server-form';
import { openSignInWindow, redirectPageTo } from '../../../stores/sign-in-window';

const STATUS_LABEL: Record<ServerView['status'], string> = {
  connected: 'Connected',
  connecting: 'Connecting…',
  disconnected: 'Not connected',
  'needs-auth': 'Sign-in needed',
  error: 'Error',
};

/** The list of servers with their status, and the actions on them. */
export function ServersPanel({ store, actions }: { store: ServersStore; actions: ServerActions }) {
  const servers = useStore(store, (s) => s.servers);
  const notices = useStore(store, (s) => s.notices);
  return (
    <section className="servers" aria-labelledby="servers-heading">
      <h2 id="servers-heading">Servers</h2>
      {servers.length === 0 && <p className="muted">No MCP servers yet. Add one by its URL below.</p>}
      <ul className="server-list">
        {servers.map((server) => {
          const notice = notices[server.id];
          return (
            <li key={server.id} className="server-item" aria-label={server.name}>
              <div className="server-head">
                <strong>{server.name}</strong>
                <span className={`status status-${server.status}`}>{STATUS_LABEL[server.status]}</span>
                <span className="muted">
                  {server.toolCount} tools{server.isCatalogStale && server.toolCount > 0 ? ' (last known)' : ''}
                </span>
              </div>
              <div className="muted server-url">{server.url}</div>
              {server.error && server.status !== 'connected' && <p className="field-error">{server.error}</p>}
              {notice && <p className={notice.tone === 'error' ? 'field-error' : 'muted'}>{notice.text}</p>}
              <div className="server-actions">
                <button type="button" onClick={() => void actions.connect(server.id)} aria-label={`Connect ${server.name}`}>
                  Connect
                </button>
                {server.authKind === 'oauth' && (
                  <button
                    type="button"
                    onClick={() => void actions.signIn(server.id, openSignInWindow, redirectPageTo)}
                    aria-label={`Sign in to ${server.name}`}
                  >
                    {server.status === 'needs-auth' ? 'Sign in' : 'Sign in again'}
                  </button>
                )}
                {server.authKind === 'oauth' && server.status !== 'needs-auth' && (
                  <button type="button" className="secondary" onClick={() => void actions.signOut(server.id)} aria-label={`Sign out of ${server.name}`}>
                    Sign out
                  </button>
                )}
                {server.scope === 'user' && (
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Remove ${server.name}`}
                    onClick={() => {
                      if (window.confirm(`Remove "${server.name}" with its stored credentials?`)) void actions.remove(server.id);
                    }}
                  >
                    Remove
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <AddServerForm actions={actions} />
    </section>
  );
}
