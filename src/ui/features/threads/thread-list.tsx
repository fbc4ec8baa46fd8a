import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { ThreadConfig } from '../../../domain/thread-config';
import { isFocusLost } from '../../hooks/focus-lost';
import { relativeTime } from './relative-time';

export interface ThreadListProps {
  readonly threads: readonly ThreadConfig[];
  readonly activeId?: string;
  readonly onNew: () => void;
  readonly onOpen: (id: string) => void;
  readonly onDelete: (id: string) => void;
  /** Resolves to an error message to show next to the field, or undefined when renamed. */
  readonly onRename: (id: string, title: string) => Promise<string | undefined>;
}

/**
 * The sidebar: new thread, a search over titles, and the profile's threads, most recent first. On a narrow
 * screen the search and the list fold away behind a "Threads" button, leaving the room to the chat.
 */
export function ThreadList({ threads, activeId, onNew, onOpen, onDelete, onRename }: ThreadListProps) {
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<{ id: string; title: string; error?: string }>();
  const [isOpen, setOpen] = useState(false);
  const listId = useId();
  // The clock the dates are told by, a minute at a time (a change newer than it reads "just now").
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  // On a phone the open list folds away on Escape (focus back on its button) or a press anywhere else (a panel).
  const nav = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!isOpen) return;
    const outside = (event: PointerEvent) => {
      if (event.target instanceof Node && !nav.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside, true);
    return () => document.removeEventListener('pointerdown', outside, true);
  }, [isOpen]);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !isOpen || editing) return;
    setOpen(false);
    toggle.current?.focus();
  };
  const active = threads.find((t) => t.id === activeId);
  // On a phone, choosing a thread folds the list away again.
  const fold = (then: () => void) => {
    setOpen(false);
    then();
  };
  // By title and by the preview line under it: what the list shows is what a search finds.
  const needle = query.trim().toLowerCase();
  const shown = needle
    ? threads.filter((t) => t.title.toLowerCase().includes(needle) || (t.preview ?? '').toLowerCase().includes(needle))
    : threads;

  // Renamed or not, the title field goes: focus goes back to the thread it named (not to the page).
  const renamedId = useRef<string>(undefined);
  useEffect(() => {
    const id = renamedId.current;
    if (id === undefined || editing) return;
    renamedId.current = undefined;
    if (isFocusLost()) nav.current?.querySelector<HTMLElement>(`[data-thread-id="${CSS.escape(id)}"]`)?.focus();
  }, [editing]);
  const stopEditing = (id: string) => {
    renamedId.current = id;
    setEditing(undefined);
  };

  const saveTitle = async (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    const error = await onRename(editing.id, editing.title);
    if (error) setEditing({ ...editing, error });
    else stopEditing(editing.id);
  };

  return (
    <nav className={isOpen ? 'threads is-open' : 'threads'} aria-label="Threads" ref={nav} onKeyDown={onKeyDown}>
      <div className="threads-bar">
        <button
          type="button"
          className="secondary threads-toggle"
          ref={toggle}
          aria-expanded={isOpen}
          aria-controls={listId}
          onClick={() => setOpen(!isOpen)}
        >
          Threads <span className="muted">({threads.length})</span>
          {active && <span className="threads-current"> · {active.title}</span>}
        </button>
        <button type="button" onClick={() => fold(onNew)} className="new-thread">
          New thread
        </button>
      </div>
      <div className="threads-body" id={listId}>
        <input
          type="search"
          className="thread-search"
          aria-label="Search threads"
          placeholder="Search threads"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        {shown.length === 0 && threads.length > 0 && <p className="muted">No thread matches.</p>}
        <ul>
          {shown.map((thread) =>
            editing?.id === thread.id ? (
              <li key={thread.id}>
                <form onSubmit={(e) => void saveTitle(e)} className="rename" noValidate>
                  <input
                    aria-label="Thread title"
                    value={editing.title}
                    autoFocus
                    onChange={(e) => setEditing({ ...editing, title: e.target.value })}
                    onKeyDown={(e) => e.key === 'Escape' && stopEditing(thread.id)}
                  />
                  {editing.error && <p className="field-error">{editing.error}</p>}
                </form>
              </li>
            ) : (
              <li key={thread.id} className={thread.id === activeId ? 'active' : undefined}>
                <button
                  type="button"
                  className="thread-link"
                  data-thread-id={thread.id}
                  aria-describedby={`${listId}-${thread.id}`}
                  aria-current={thread.id === activeId ? 'page' : undefined}
                  onClick={() => fold(() => onOpen(thread.id))}
                >
                  <span className="thread-title">{thread.title}</span>
                  {/* Its name is the title (the visible label); date and preview are its description, not its name. */}
                  <span className="thread-meta muted" id={`${listId}-${thread.id}`} aria-hidden="true">
                    <time dateTime={new Date(thread.updatedAt).toISOString()}>
                      {relativeTime(thread.updatedAt, now)}
                    </time>
                    {thread.preview ? ` · ${thread.preview}` : ''}
                  </span>
                </button>
                <button
                  type="button"
                  className="icon secondary"
                  aria-label={`Rename thread ${thread.title}`}
                  onClick={() => setEditing({ id: thread.id, title: thread.title })}
                >
                  ✎
                </button>
                <button
                  type="button"
                  className="icon danger"
                  aria-label={`Delete thread ${thread.title}`}
                  onClick={() => onDelete(thread.id)}
                >
                  ×
                </button>
              </li>
            ),
          )}
        </ul>
      </div>
    </nav>
  );
}
