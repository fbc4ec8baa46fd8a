import { useMemo, useState } from 'react';
import type { DirectoryEntry } from '../../../domain/directory-entry';
import type { DirectoryActions, DirectoryStore } from '../../../stores/directory-store';
import { formForEntry } from '../../../stores/directory-store';
import type { ServerForm } from '../../../stores/servers-store';
import { useStore } from '../../hooks/use-store';

const TRANSPORT_LABEL = { http: 'Streamable HTTP', sse: 'HTTP+SSE (legacy)' } as const;

/** One server of the directory: what it is, who published it, and Add when a browser can reach it. */
function DirectoryItem({
  entry,
  onAdd,
  addedAs,
}: {
  entry: DirectoryEntry;
  onAdd: (form: ServerForm) => void;
  addedAs: ReadonlyMap<string, string>;
}) {
  const remote = entry.remotes[0];
  const added = remote && addedAs.get(sameAddress(remote.url));
  return (
    <li className="directory-item" aria-label={entry.title}>
      <div>
        <strong>{entry.title}</strong>
        {entry.version && <span className="badge">v{entry.version}</span>}
        {remote && <span className="badge">{TRANSPORT_LABEL[remote.transport]}</span>}
      </div>
      <div className="muted">
        {entry.name}
        {entry.publisher && ` · published by ${entry.publisher}`}
      </div>
      {entry.description && <p className="directory-description">{entry.description}</p>}
      {added ? (
        <p className="muted">Added: it is your server &ldquo;{added}&rdquo; (same address).</p>
      ) : remote ? (
        <button type="button" onClick={() => onAdd(formForEntry(entry, remote))} aria-label={`Add ${entry.title}`}>
          Add
        </button>
      ) : (
        <p className="muted">
          Needs a local process ({entry.packages.join(', ') || 'no remote listed'}): it cannot be added in a browser.
        </p>
      )}
    </li>
  );
}

/** "Find servers": searches the deployer's server registry as the person types; Add fills the server form. */
export function FindServers({
  store,
  actions,
  onAdd,
  servers = [],
}: {
  store: DirectoryStore;
  actions: DirectoryActions;
  onAdd: (form: ServerForm) => void;
  /** The servers already added: an entry at one's address says so instead of offering Add. */
  servers?: readonly { readonly name: string; readonly url: string }[];
}) {
  const addedAs = useMemo(() => new Map(servers.map((s) => [sameAddress(s.url), s.name])), [servers]);
  const [isOpen, setOpen] = useState(false);
  const query = useStore(store, (s) => s.query);
  const status = useStore(store, (s) => s.status);
  const entries = useStore(store, (s) => s.entries);
  const skipped = useStore(store, (s) => s.skipped);
  const error = useStore(store, (s) => s.error);
  const hasMore = useStore(store, (s) => s.nextCursor !== undefined);
  if (!isOpen)
    return (
      <button
        type="button"
        className="find-servers-open"
        onClick={() => {
          setOpen(true);
          actions.setQuery(query); // The first page of the directory, or the last search again.
        }}
      >
        Find servers
      </button>
    );
  return (
    <section className="find-servers" aria-labelledby="find-servers-heading">
      <h3 id="find-servers-heading">Find servers</h3>
      <input
        type="search"
        aria-label="Search the server directory"
        placeholder="Search by name"
        value={query}
        onChange={(e) => actions.setQuery(e.target.value)}
        autoFocus
      />
      <p role="status" className="muted">
        {status === 'searching'
          ? 'Searching…'
          : status === 'done'
            ? `${entries.length} server${entries.length === 1 ? '' : 's'} found${hasMore ? ' so far' : ''}.`
            : ''}
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <ul className="directory-list" aria-label="Directory results">
        {entries.map((entry) => (
          <DirectoryItem key={entry.name} entry={entry} onAdd={onAdd} addedAs={addedAs} />
        ))}
      </ul>
      {hasMore && (
        <button type="button" onClick={() => void actions.more()} disabled={status === 'searching'}>
          More
        </button>
      )}
      {skipped.length > 0 && (
        <details>
          <summary>
            {skipped.length} entr{skipped.length === 1 ? 'y' : 'ies'} left out
          </summary>
          <ul>
            {skipped.map((s, i) => (
              <li key={`${s.name}-${i}`}>
                {s.name}: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

/** An address as two servers are compared: the URL parser's form (case of the host, default port), no trailing slash. */
function sameAddress(url: string): string {
  return URL.canParse(url) ? new URL(url).href.replace(/\/$/, '') : url;
}
