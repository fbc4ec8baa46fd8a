import { useContext, useState } from 'react';
import { formatBytes } from '../../../domain/byte-size';
import type { ResourceTemplateInfo } from '../../../domain/server-resource';
import type { ResourceActions } from '../../../stores/resource-attachments';
import { useStore } from '../../hooks/use-store';
import { ResourceActionsContext } from './resource-context';
import { ResourceTemplateForm } from './resource-template-form';
import './resources.css';

/** A server's resources and templates in the servers manager, listed when opened; each can be attached to the message. */
export function ServerResources({ serverId, name }: { serverId: string; name: string }) {
  const actions = useContext(ResourceActionsContext);
  if (!actions) return null;
  return <ResourceList actions={actions} serverId={serverId} name={name} />;
}

function ResourceList({ actions, serverId, name }: { actions: ResourceActions; serverId: string; name: string }) {
  const listing = useStore(actions.store, (s) => s.listings[serverId]);
  const isLoading = useStore(actions.store, (s) => s.loading[serverId] ?? false);
  const [template, setTemplate] = useState<ResourceTemplateInfo>();
  const [attached, setAttached] = useState<string>();
  return (
    <details
      className="server-resources"
      onToggle={(e) => {
        if (e.currentTarget.open && !listing && !isLoading) void actions.load(serverId);
      }}
    >
      <summary>Resources{listing ? ` (${listing.resources.length + listing.templates.length})` : ''}</summary>
      {isLoading && <p className="muted">Listing…</p>}
      {listing?.problem && <p className="field-error">{listing.problem}</p>}
      {listing && (
        <>
          <ul className="resource-list" aria-label={`Resources of ${name}`}>
            {listing.resources.map((r) => (
              <li key={r.uri}>
                <span className="resource-name">{r.title ?? r.name}</span>{' '}
                <span className="muted">
                  {r.uri}
                  {r.mimeType ? ` · ${r.mimeType}` : ''}
                  {r.size !== undefined ? ` · ${formatBytes(r.size)}` : ''}
                </span>{' '}
                <button
                  type="button"
                  className="secondary small"
                  aria-label={`Attach ${r.title ?? r.name}`}
                  onClick={() =>
                    void actions.attach(serverId, r.uri, r.name).then(() => setAttached(r.title ?? r.name))
                  }
                >
                  Attach
                </button>
              </li>
            ))}
            {listing.templates.map((t) => (
              <li key={t.uriTemplate}>
                <span className="resource-name">{t.title ?? t.name}</span>{' '}
                <span className="muted">{t.uriTemplate} (template)</span>{' '}
                <button
                  type="button"
                  className="secondary small"
                  aria-label={`Fill in ${t.title ?? t.name}`}
                  onClick={() => setTemplate(t)}
                >
                  Fill in…
                </button>
              </li>
            ))}
          </ul>
          {listing.resources.length + listing.templates.length === 0 && !listing.problem && (
            <p className="muted">
              {listing.notOffered ? `${name} offers no resources.` : `${name} lists no resources.`}
            </p>
          )}
          <p className="muted" role="status">
            {attached ? `${attached} was added to the message being written.` : ''}
          </p>
          <button type="button" className="secondary small" onClick={() => void actions.load(serverId)}>
            List again
          </button>
        </>
      )}
      {template && (
        <ResourceTemplateForm
          actions={actions}
          serverId={serverId}
          template={template}
          onDone={() => setTemplate(undefined)}
        />
      )}
    </details>
  );
}
