import type { ServerActions, ServersStore } from '../../../stores/servers-store';
import { PanelHeading } from '../../components/panel-heading';
import { useStore } from '../../hooks/use-store';
import { ServerFormView } from './server-form';
import { ServerItem } from './server-item';
import './servers.css';

/** The servers manager: every server with its status and tools, and the form to add one. */
export function ServersPanel({
  store,
  actions,
  onClose,
}: {
  store: ServersStore;
  actions: ServerActions;
  onClose?: (() => void) | undefined;
}) {
  const servers = useStore(store, (s) => s.servers);
  const notices = useStore(store, (s) => s.notices);
  const defaultIds = useStore(store, (s) => s.defaultIds);
  return (
    <section className="servers" aria-labelledby="servers-heading">
      <PanelHeading id="servers-heading" title="Servers" onClose={onClose} />
      {servers.length === 0 && <p className="muted">No MCP servers yet. Add one by its URL below.</p>}
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
      <ServerFormView actions={actions} />
    </section>
  );
}
