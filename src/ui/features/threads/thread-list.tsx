import type { ThreadConfig } from '../../../domain/thread-config';

/** The sidebar: new thread, and the profile's threads, most recent first. */
export function ThreadList({ threads, activeId, onNew, onOpen, onDelete }: { threads: readonly ThreadConfig[]; activeId?: string; onNew: () => void; onOpen: (id: string) => void; onDelete: (id: string) => void }) {
  return (
    <nav className="threads" aria-label="Threads">
      <button type="button" onClick={onNew} className="new-thread">
        New thread
      </button>
      <ul>
        {threads.map((thread) => (
          <li key={thread.id} className={thread.id === activeId ? 'active' : undefined}>
            <button type="button" className="thread-link" aria-current={thread.id === activeId ? 'page' : undefined} onClick={() => onOpen(thread.id)}>
              {thread.title}
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
        ))}
      </ul>
    </nav>
  );
}
