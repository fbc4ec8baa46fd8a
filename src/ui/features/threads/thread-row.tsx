import type { FormEvent } from 'react';
import type { MessageMatch } from '../../../domain/message-text';
import type { ThreadConfig } from '../../../domain/thread-config';
import { relativeTime } from './relative-time';

/** A thread's message found by the search: where the words stand in it, the words marked. */
function FoundLine({ id, found }: { id: string; found: MessageMatch }) {
  return (
    <span className="thread-found" id={id} aria-hidden="true">
      {found.role === 'user' ? 'You: ' : ''}
      {found.match.before}
      <mark>{found.match.match}</mark>
      {found.match.after}
    </span>
  );
}

export interface Editing {
  readonly id: string;
  readonly title: string;
  readonly error?: string;
}

/** The inside of a thread's row: its link (title, date, preview, a search's find), Rename and Delete; or the title field. */
export function ThreadRow({
  thread,
  listId,
  now,
  activeId,
  runningId,
  foundHere,
  editing,
  onOpen,
  onEdit,
  onSave,
  onStopEditing,
  onDelete,
}: {
  readonly thread: ThreadConfig;
  readonly listId: string;
  readonly now: number;
  readonly activeId: string | undefined;
  readonly runningId: string | undefined;
  readonly foundHere: MessageMatch | undefined;
  readonly editing: Editing | undefined;
  readonly onOpen: () => void;
  readonly onEdit: (editing: Editing) => void;
  readonly onSave: (event: FormEvent) => void;
  readonly onStopEditing: () => void;
  readonly onDelete: () => void;
}) {
  return editing?.id === thread.id ? (
    <form onSubmit={onSave} className="rename" noValidate>
      <input
        aria-label="Thread title"
        value={editing.title}
        autoFocus
        onChange={(e) => onEdit({ ...editing, title: e.target.value })}
        onKeyDown={(e) => e.key === 'Escape' && onStopEditing()}
      />
      {editing.error && <p className="field-error">{editing.error}</p>}
    </form>
  ) : (
    <>
      <button
        type="button"
        className="thread-link"
        data-thread-id={thread.id}
        aria-describedby={`${thread.id === runningId ? `${listId}-${thread.id}-running ` : ''}${listId}-${thread.id}${foundHere ? ` ${listId}-${thread.id}-found` : ''}`}
        aria-current={thread.id === activeId ? 'page' : undefined}
        onClick={onOpen}
      >
        <span className="thread-title">{thread.title}</span>
        {/* Its name stays the title: "Answering…" is part of its description. */}
        {thread.id === runningId && (
          <span className="thread-running" id={`${listId}-${thread.id}-running`} aria-hidden="true">
            Answering…
          </span>
        )}
        {/* Its name is the title (the visible label); date and preview are its description, not its name. */}
        <span className="thread-meta muted" id={`${listId}-${thread.id}`} aria-hidden="true">
          <time dateTime={new Date(thread.updatedAt).toISOString()}>{relativeTime(thread.updatedAt, now)}</time>
          {thread.preview ? ` · ${thread.preview}` : ''}
        </span>
        {foundHere && <FoundLine id={`${listId}-${thread.id}-found`} found={foundHere} />}
      </button>
      <button
        type="button"
        className="icon secondary"
        aria-label={`Rename thread ${thread.title}`}
        onClick={() => onEdit({ id: thread.id, title: thread.title })}
      >
        ✎
      </button>
      <button type="button" className="icon danger" aria-label={`Delete thread ${thread.title}`} onClick={onDelete}>
        ×
      </button>
    </>
  );
}
