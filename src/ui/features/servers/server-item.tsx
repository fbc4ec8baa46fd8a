import { useEffect, useRef, useState } from 'react';
import { formFromConfig, removeQuestion, type ServerActions, type ServerView } from '../../../stores/servers-store';
import { isFocusLost } from '../../hooks/focus-lost';
import { openSignInWindow, redirectPageTo } from '../../../stores/sign-in-window';
import { ServerFormView } from './server-form';
import { ServerTools } from './server-tools';
import { ServerLog } from './server-log';
import { ServerResources } from '../resources/server-resources';
import { isToolListPending, NO_LIVE_UPDATES, SERVER_STATUS_LABEL, TOOLS_PENDING } from '../../components/server-status';

const AUTH_LABEL: Record<ServerView['authKind'], string> = {
  none: 'no authentication',
  bearer: 'bearer token',
  headers: 'custom headers',
  oauth: 'OAuth',
};

/** One server in the manager: status, last error, actions, the edit form and its tools. */
export function ServerItem({
  server,
  notice,
  isDefault,
  actions,
}: {
  server: ServerView;
  notice?: { tone: 'error' | 'info'; text: string } | undefined;
  isDefault: boolean;
  actions: ServerActions;
}) {
  const [isEditing, setEditing] = useState(false);
  const isUser = server.scope === 'user';
  // Edit's button goes as the form comes, and the form goes on Save or Cancel: the focus goes to the form's first
  // field, then back to Edit (only when it fell to the page).
  const item = useRef<HTMLLIElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (isEditing === wasEditing.current) return;
    wasEditing.current = isEditing;
    if (!isFocusLost()) return;
    (isEditing ? item.current?.querySelector<HTMLElement>('form input') : editButton.current)?.focus();
  }, [isEditing]);
  const remove = async () => {
    // The question names the threads that lose its tools (none are changed otherwise; their messages stay).
    const use = await actions.usedBy(server.id).catch(() => ({ threads: 0, pinnedTools: 0 }));
    if (!window.confirm(removeQuestion(server.name, use))) return;
    // The row goes: the focus goes to the next server's first button, else the one before, else the add form.
    const row = item.current;
    const neighbour = row?.nextElementSibling ?? row?.previousElementSibling;
    const panel = row?.closest('section');
    await actions.remove(server.id);
    if (!isFocusLost()) return;
    const target = neighbour?.isConnected ? neighbour.querySelector<HTMLElement>('button') : undefined;
    (target ?? panel?.querySelector<HTMLElement>('form[aria-label="Add a server"] input'))?.focus();
  };
  return (
    <li className="server-item" aria-label={server.name} ref={item}>
      <div className="server-head">
        <strong>{server.name}</strong>
        <span className={`status status-${server.status}`}>{SERVER_STATUS_LABEL[server.status]}</span>
        <span className="muted">
          {isToolListPending(server)
            ? TOOLS_PENDING
            : `${server.toolCount} tools${server.isCatalogStale && server.toolCount > 0 ? ' (last known)' : ''}`}
        </span>
        {server.config.deferTools !== true && (
          <span className="badge">{server.config.deferTools === 'always' ? 'Always deferred' : 'Always loaded'}</span>
        )}
        {!isUser && <span className="badge">Provided by the app</span>}
        {isUser && server.config.fromDirectory && (
          <span className="badge" title={server.config.fromDirectory}>
            Added from the directory
          </span>
        )}
      </div>
      <div className="muted server-url">
        {server.url} · {AUTH_LABEL[server.authKind]}
        {server.viaRelay ? ' · through the relay' : ''}
      </div>
      <label className="server-default">
        <input
          type="checkbox"
          role="switch"
          checked={isDefault}
          aria-checked={isDefault}
          aria-label={`New threads use ${server.name}`}
          onChange={() => void actions.setDefault(server.id, !isDefault)}
        />
        <span>On in new threads</span>
      </label>
      {server.hasNoLiveUpdates && <p className="muted">{NO_LIVE_UPDATES}</p>}
      {server.error && server.status !== 'connected' && (
        // An OAuth server waiting for a sign-in is in an expected state, not an error.
        <p className={server.status === 'needs-auth' && server.authKind === 'oauth' ? 'muted' : 'field-error'}>
          {server.error}
        </p>
      )}
      {notice && notice.text !== server.error && (
        <p className={notice.tone === 'error' ? 'field-error' : 'muted'}>{notice.text}</p>
      )}
      {isEditing ? (
        <ServerFormView
          actions={actions}
          initial={formFromConfig(server.config)}
          saved={server.config}
          onDone={() => setEditing(false)}
        />
      ) : (
        <div className="server-actions">
          {server.offersRelay && (
            <button
              type="button"
              onClick={() => void actions.connectThroughRelay(server.id)}
              aria-label={`Connect ${server.name} through relay`}
            >
              Connect through relay
            </button>
          )}
          {server.status === 'connected' ? (
            <button
              type="button"
              className="secondary"
              onClick={() => void actions.checkAgain(server.id)}
              aria-label={`Check again: ${server.name}`}
            >
              Check again
            </button>
          ) : (
            <button
              type="button"
              className={server.offersRelay ? 'secondary' : undefined}
              onClick={() => void actions.connect(server.id)}
              aria-label={`Connect ${server.name}`}
            >
              Connect
            </button>
          )}
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
            <button
              type="button"
              className="secondary"
              onClick={() => void actions.signOut(server.id)}
              aria-label={`Sign out of ${server.name}`}
            >
              Sign out
            </button>
          )}
          {isUser && (
            <button
              type="button"
              className="secondary"
              ref={editButton}
              onClick={() => setEditing(true)}
              aria-label={`Edit ${server.name}`}
            >
              Edit
            </button>
          )}
          {isUser && (
            <button type="button" className="danger" aria-label={`Remove ${server.name}`} onClick={() => void remove()}>
              Remove
            </button>
          )}
        </div>
      )}
      <ServerTools server={server} actions={actions} />
      <ServerResources serverId={server.id} name={server.name} />
      <ServerLog name={server.name} entries={server.logs} />
    </li>
  );
}
