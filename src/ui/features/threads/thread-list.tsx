import { useState, type FormEvent } from 'react';
import type { ThreadConfig } from '../../../domain/thread-config';

export interface ThreadListProps {
  readonly threads: readonly ThreadConfig[];
  readonly activeId?: string;
  readonly onNew: () => void;
  readonly onOpen: (id: string) => void;
  readonly onDelete: (id: string) => void;
  /** Resolves to an error message to show next to the field, or undefined when renamed. */
  readonly onRename: (id: string, title: string) => Promise<string | undefined>;
}

/** The sidebar: new thread, a search over titles, and the profile's threads, most recent first. */
export function ThreadList({ threads, activeId, onNew, onOpen, onDelete, onRename }: ThreadListProps) {
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<{ id: string; title: string; error?: string }>();
  const shown = query.trim() ? threads.filter((t) => t.title.toLowerCase().includes(query.trim().toLowerCase())) : threads;

  const saveTitle = async (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    const error = await onRename(editing.id, editing.title);
    setEditing(error ? { ...editing, error } : undefined);
  };

  return (
    <nav className="threads" aria-label="Threads">
      <button type="button" onClick={onNew} className="new-thread">
        New thread
      </button>
      <input type="search" className="thread-search" aria-label="Search threads" placeholder="Search threads" value={query} onChange={(e) => setQuery(e.target.value)} />
      {shown.length === 0 && threads.length > 0 && <p className="muted">No thread matches.</p>}
      <ul>
        {shown.map((thread) =>
          editing?.id === thread.id ? (
            <li key={thread.id}>
              <form onSubmit={(e) => void saveTitle(e)} className="rename" noValidate>
                <input aria-label="Thread title" value={editing.title} autoFocus onChange={(e) => setEditing({ ...editing, title: e.target.value })} onKeyDown={(e) => e.key === 'Escape' && setEditing(undefined)} />
                {editing.error && <p className="field-error">{editing.error}</p>}
              </form>
            </li>
          ) : (
            <li key={thread.id} className={thread.id === activeId ? 'active' : undefined}>
              <button type="button" className="thread-link" aria-current={thread.id === activeId ? 'page' : undefined} onClick={() => onOpen(thread.id)}>
                {thread.title}
              </button>
              <button type="button" className="icon secondary" aria-label={`Rename thread ${thread.title}`} onClick={() => setEditing({ id: thread.id, title: thread.title })}>
                ✎
              </button>
              <button
                type="button"
                className="icon danger"
                aria-label={`Delete thread ${thread.title}`}
                onClick={() => {
                  if (window.confirm(`Delete "${thread.title}" and all its messages?`)) onDelete(thread.id);
                }}
              >
                ×
              </button>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}
