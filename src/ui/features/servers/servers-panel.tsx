import { useMemo, useState } from 'react';
import type { DirectoryActions, DirectoryStore } from '../../../stores/directory-store';
import { EMPTY_SERVER_FORM, type ServerActions, type ServersStore } from '../../../stores/servers-store';
import { withoutSecrets, type ServerForm } from '../../../stores/server-form';
import { PanelHeading } from '../../components/panel-heading';
import { useStore } from '../../hooks/use-store';
import { FindServers } from './find-servers';
import { ServerFormView } from './server-form';
import { ServerItem } from './server-item';
import './servers.css';

/** Brings the add form (below the list) into view, with the focus on its first field. */
function focusAddForm(): void {
  const field = document.querySelector<HTMLInputElement>('form[aria-label="Add a server"] input');
  field?.scrollIntoView({ block: 'center' });
  field?.focus();
}

/** The servers manager: every server with its status and tools, and the form to add one. */
export function ServersPanel({
  store,
  actions,
  directory,
  onClose,
  addDraft,
}: {
  store: ServersStore;
  actions: ServerActions;
  directory?: { readonly store: DirectoryStore; readonly actions: DirectoryActions } | undefined;
  onClose?: (() => void) | undefined;
  /** What was typed in the add form before the panel last closed, and where to keep what is typed now. */
  addDraft?: { readonly read: () => ServerForm | undefined; readonly onChange: (form: ServerForm) => void } | undefined;
}) {
  // A directory entry's Add puts a fresh form (new key) in place of the one below, filled from the entry.
  const [draft, setDraft] = useState(() => ({ key: 0, form: addDraft?.read() ?? EMPTY_SERVER_FORM }));
  // Handed on without its secrets (a locked vault still shows Servers). Here, not in the shell: the shell is on the
  // first screen, which loads no zod (the form's module brings it).
  const keepDraft = useMemo(
    () => addDraft && ((form: ServerForm) => addDraft.onChange(withoutSecrets(form))),
    [addDraft],
  );
  const servers = useStore(store, (s) => s.servers);
  const notices = useStore(store, (s) => s.notices);
  const defaultIds = useStore(store, (s) => s.defaultIds);
  return (
    <section className="servers" aria-labelledby="servers-heading">
      <PanelHeading id="servers-heading" title="Servers" onClose={onClose} />
      {servers.length === 0 ? (
        <p className="muted">No MCP servers yet. Add one by its URL below.</p>
      ) : (
        // The form comes after every server's controls: one key press gets there from the top.
        <button type="button" className="secondary skip-to-add" onClick={focusAddForm}>
          Go to Add a server ↓
        </button>
      )}
      <ul className="server-list">
        {servers.map((server) => (
          <ServerItem
            key={server.id}
            server={server}
            notice={notices[server.id]}
            isDefault={defaultIds.includes(server.id)}
            actions={actions}
          />
        ))}
      </ul>
      {directory && (
        <FindServers
          store={directory.store}
          actions={directory.actions}
          servers={servers}
          onAdd={(form) => {
            setDraft((d) => ({ key: d.key + 1, form }));
            // The filled form is below the list: bring it into view with focus on its first field.
            requestAnimationFrame(focusAddForm);
          }}
        />
      )}
      <ServerFormView
        key={draft.key}
        actions={actions}
        initial={draft.form}
        {...(keepDraft ? { onChange: keepDraft } : {})}
      />
    </section>
  );
}
